package projectview

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestRepeatedFilePagesStop (issue 26.4): a file listing that hands out
// the same files again, or the same cursor again, ends the paging of the
// files tab with the error naming the endpoint; each file is shown once
// and no further page is asked for however far the cursor goes.
func TestRepeatedFilePagesStop(t *testing.T) {
	for name, next := range map[string]func(int) string{
		"same files":  func(n int) string { return fmt.Sprint("c", n) },
		"same cursor": func(int) string { return "same" },
	} {
		t.Run(name, func(t *testing.T) {
			f := fake()
			n := 0
			f.ProjectFilesFn = func(_ context.Context, _ string, q api.FileQuery) (*api.FilePage, error) {
				n++
				ids := []string{"a", "b"}
				if name == "same cursor" {
					ids = []string{fmt.Sprint("a", n), fmt.Sprint("b", n)}
				}
				fp := &api.FilePage{Pagination: api.CursorPagination{HasMore: true, NextCursor: str(next(n))}}
				for _, id := range ids {
					fp.Files = append(fp.Files, api.ProjectFile{ID: id, Name: id + ".pdf"})
				}
				return fp, nil
			}
			p := openProject(t, f, false)
			p, _ = pagetest.Press(p, "tab")
			var msgs []tea.Msg
			for range 6 {
				var m []tea.Msg
				p, m = pagetest.Press(p, "G")
				msgs = append(msgs, m...)
			}
			want := map[string]string{"same files": "holds only files already listed", "same cursor": "next_cursor it had already given"}[name]
			if got := fmt.Sprint(msgs); !strings.Contains(got, want) || !strings.Contains(got, "GET /api/v1/vault/projects/{project_id}/files") {
				t.Errorf("no error %q naming the endpoint in %v", want, got)
			}
			if f.Calls("ProjectFiles") > 3 || p.(*Model).Table.Len() > 4 {
				t.Errorf("%d requests, %d rows", f.Calls("ProjectFiles"), p.(*Model).Table.Len())
			}
		})
	}
}
