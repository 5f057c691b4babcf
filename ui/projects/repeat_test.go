package projects

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestRepeatedPageStopsPaging (issue 26.4): a server that answers every
// page with the same projects (calling each page 1) under an enormous
// total_pages grew the table as far as the user scrolled, a request per
// screen. The view keeps each project once, shows the error naming the
// endpoint, and asks for no further page however far the cursor goes.
func TestRepeatedPageStopsPaging(t *testing.T) {
	same := make([]api.Project, 100)
	for i := range same {
		same[i] = api.Project{ID: fmt.Sprint("p", i), Name: fmt.Sprintf("Repeated %03d", i)}
	}
	f := &pagetest.Fake{ProjectsFn: func(_ context.Context, q api.ProjectQuery) (*api.ProjectPage, error) {
		return &api.ProjectPage{Projects: same, Pagination: api.PagePagination{Page: 1, PerPage: 100, Total: 1e10, TotalPages: 1e8}}, nil
	}}
	p := openList(t, f, nil)
	var msgs []tea.Msg
	for range 5 {
		var m []tea.Msg
		p, m = pagetest.Press(p, "G")
		msgs = append(msgs, m...)
	}
	if n := f.Calls("Projects"); n != 2 {
		t.Errorf("%d requests, want 2 (the first page, and the one that repeats it)", n)
	}
	if v := p.View(); !strings.Contains(v, "100 of") || strings.Count(v, "Repeated 099") > 1 {
		t.Errorf("view:\n%s", v)
	}
	if !strings.Contains(fmt.Sprint(msgs), "holds only projects already listed") || !strings.Contains(fmt.Sprint(msgs), "GET /api/v1/vault/workspace/projects") {
		t.Errorf("no error naming the repeat and the endpoint in %v", msgs)
	}
}
