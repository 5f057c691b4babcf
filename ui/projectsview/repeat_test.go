package projectsview

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

// TestWidePagesStopAtTheByteBound (issue 26.3): the view keeps every page
// scrolled through; pages of projects with 200 KB names stop at the byte
// bound (96 MiB) with the error naming it and the streaming command, and
// no further page is asked for. (One name string is shared by every
// project: the test holds 200 KB, the view counts 20 MB a page.)
func TestWidePagesStopAtTheByteBound(t *testing.T) {
	name := strings.Repeat("n", 200<<10)
	f := &pagetest.Fake{ProjectsFn: func(_ context.Context, q api.ProjectQuery) (*api.ProjectPage, error) {
		pg := &api.ProjectPage{Pagination: api.PagePagination{Page: api.Int(q.Page), PerPage: 100, Total: 100_000, TotalPages: 1000}}
		for i := range 100 {
			pg.Projects = append(pg.Projects, api.Project{ID: fmt.Sprint("p", q.Page, "-", i), Name: name})
		}
		return pg, nil
	}}
	p := openList(t, f, nil)
	var msgs []tea.Msg
	for range 10 {
		var m []tea.Msg
		p, m = pagetest.Press(p, "G")
		msgs = append(msgs, m...)
	}
	if n := f.Calls("Projects"); n != 5 {
		t.Errorf("%d requests, want 5 (the fifth page passes 96 MiB)", n)
	}
	if got := fmt.Sprint(msgs); !strings.Contains(got, "over 96 MiB") || !strings.Contains(got, "vaultdeck projects --jsonl") {
		t.Errorf("no error naming the bound and the streaming command in %.600s", got)
	}
}
