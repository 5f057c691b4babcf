package projectview

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 19 case 8: after a partial deletion failure the head line said
// "… processing conflicts (fai" at 80 columns: the reason and its counts
// were cut. The head wraps instead (the project's name, which the
// breadcrumb also shows, gives way first) and the page keeps its height.
func TestPartialFailureHeadNeverCut(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		f := fake()
		f.DeleteProjectFn = func(context.Context, string) (*api.DeleteProjectResult, error) {
			return &api.DeleteProjectResult{Error: "Project deletion partially failed due to processing conflicts",
				Details: &api.DeleteProjectDetails{FailedFolders: 2, FailedFiles: 5}}, nil
		}
		env := pagetest.Env(t, f, false)
		p := FromRecord(env, api.Project{ID: "p1", Name: "Northwind Data Room — Processing Backlog", FilesCount: 30})
		p.SetSize(size[0], size[1])
		p, _ = pagetest.Drive(p, p.Init())
		p, _ = pagetest.Press(p, "D")
		p, _ = pagetest.Type(p, "Northwind Data Room — Processing Backlog")
		p, out := pagetest.Press(p, "enter")
		p, _ = pagetest.RunTasks(p, out)
		v := p.View()
		lines := strings.Split(v, "\n")
		if len(lines) > size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		flat := strings.Join(strings.Fields(v), " ")
		for _, want := range []string{"30 files", "partially failed due to processing conflicts (failed folders: 2, failed files: 5)", "Users", "Olga Owner"} {
			if !strings.Contains(flat, want) {
				t.Errorf("%dx%d: %q missing or cut:\n%s", size[0], size[1], want, v)
			}
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
	}
}
