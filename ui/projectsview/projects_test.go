package projectsview

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// server fakes 250 projects in pages, filtered by name.
func server() (*pagetest.Fake, *[]api.ProjectQuery) {
	var mu sync.Mutex
	var seen []api.ProjectQuery
	all := make([]api.Project, 250)
	for i := range all {
		all[i] = api.Project{ID: fmt.Sprint("p", i), Name: fmt.Sprintf("Matter %03d", i), FilesCount: api.Int(i), SizeBytes: api.Int(i * 1000),
			CreatorEmail: "c@firm.test", CreatedAt: api.Time{Time: pagetest.Now}, IsKnowledgeBaseProject: i%2 == 0}
	}
	f := &pagetest.Fake{ProjectsFn: func(_ context.Context, q api.ProjectQuery) (*api.ProjectPage, error) {
		mu.Lock()
		seen = append(seen, q)
		mu.Unlock()
		var match []api.Project
		for _, p := range all {
			if strings.Contains(strings.ToLower(p.Name), strings.ToLower(q.Name)) {
				match = append(match, p)
			}
		}
		from := min((q.Page-1)*q.PerPage, len(match))
		to := min(from+q.PerPage, len(match))
		return &api.ProjectPage{Projects: match[from:to], Pagination: api.PagePagination{Page: api.Int(q.Page), PerPage: api.Int(q.PerPage),
			Total: api.Int(len(match)), TotalPages: api.Int((len(match) + q.PerPage - 1) / q.PerPage)}}, nil
	}}
	return f, &seen
}

func openList(t testing.TB, f *pagetest.Fake, cache page.Cache) page.Page {
	env := pagetest.Env(t, f, false)
	env.Cache = cache
	p := New(env, "")
	p.SetSize(100, 30)
	p, _ = pagetest.Drive(p, p.Init())
	return p
}

func TestRows(t *testing.T) {
	rows := Rows([]api.Project{{ID: "x", Name: "A\x1b[2J", FilesCount: 3, SizeBytes: 1500000, IsKnowledgeBaseProject: true}})
	c := rows[0].Cells
	if c[ColName] != "A" || c[ColFiles] != "3" || c[ColSize] != "1.5 MB" || c[ColKB] != "✓" {
		t.Errorf("cells %q", c)
	}
}

func TestPagesLoadAsCursorNearsEnd(t *testing.T) {
	f, seen := server()
	p := openList(t, f, nil)
	if !strings.Contains(p.View(), "100 of 250 loaded") {
		t.Fatalf("first page:\n%s", p.View())
	}
	p, _ = pagetest.Press(p, "G")
	p, _ = pagetest.Press(p, "G")
	if !strings.Contains(p.View(), "250 of 250 loaded") || len(*seen) != 3 {
		t.Errorf("requests %v view:\n%s", *seen, p.View())
	}
}

func TestNameFilterDebouncedAndStaleDropped(t *testing.T) {
	f, seen := server()
	p := openList(t, f, nil)
	p, _ = pagetest.Press(p, "/")
	// type "01" without running the debounce ticks, then run only the last one
	p, _ = p.Update(pagetest.Key("0"))
	p, last := p.Update(pagetest.Key("1"))
	p, _ = pagetest.Drive(p, last)
	if n := len(*seen); n != 2 || (*seen)[1].Name != "01" {
		t.Fatalf("want one filtered request, got %v", *seen)
	}
	if v := p.View(); !strings.Contains(v, "Matter 010") || strings.Contains(v, "Matter 000") {
		t.Errorf("filtered view:\n%s", v)
	}
	// an earlier debounce (for "0") firing late must not send a request
	m := p.(*Model)
	p, cmd := p.Update(debounced{Tag: page.Tag{View: m.id, Seq: 1}, query: "0"})
	if cmd != nil || len(*seen) != 2 {
		t.Error("stale debounce acted")
	}
	// and a late response from before the filter must not replace the list
	p, _ = p.Update(pageLoaded{Tag: page.Tag{View: m.id, Seq: 1}, Value: &api.ProjectPage{}})
	if !strings.Contains(p.View(), "Matter 010") {
		t.Error("stale response applied")
	}
}

func TestCacheSparesBudget(t *testing.T) {
	f, seen := server()
	cache := &pagetest.MapCache{At: pagetest.Now.Add(-2 * time.Minute)}
	openList(t, f, cache)
	p := openList(t, f, cache)
	if len(*seen) != 1 || !strings.Contains(p.View(), "cached 2 minutes ago") {
		t.Fatalf("requests %d view:\n%s", len(*seen), p.View())
	}
	p, _ = pagetest.Press(p, "r")
	if len(*seen) != 2 || strings.Contains(p.View(), "cached") {
		t.Errorf("r should refetch; requests %d", len(*seen))
	}
}

func TestEnterOpensProject(t *testing.T) {
	f, _ := server()
	p := openList(t, f, nil)
	_, out := pagetest.Press(p, "enter")
	if len(out) != 1 {
		t.Fatalf("out %v", out)
	}
	// The project route opens it from the list's record (no request to name it).
	if name, ok := openedProject(out[0]); !ok || name != "Matter 000" {
		t.Errorf("opened %#v", out[0])
	}
}

// openedProject is the name of the project that msg opens through the
// project route with the list's record.
func openedProject(msg tea.Msg) (string, bool) {
	o, ok := msg.(page.Open)
	if !ok || o.Route != "project" {
		return "", false
	}
	p, ok := o.Record.(api.Project)
	if !ok || p.ID != o.Arg {
		return "", false
	}
	return p.Name, true
}

// "/Juniper⏎⏎" typed fast (one burst over SSH): the second enter came
// before the filtered listing and opened the first row of the old list
// (Acme Corp), whose delete dialog then took the name typed next. An
// enter while the rows shown are not yet those of the name filter opens
// the first row of the listing when it arrives.
func TestEnterBeforeTheFilteredListOpensItsFirstRow(t *testing.T) {
	f, _ := server()
	p := openList(t, f, nil)
	p, _ = pagetest.Press(p, "/")
	p, _ = p.Update(pagetest.Key("042"))
	p, load := p.Update(pagetest.Key("enter")) // applies the filter: a request
	p, cmd := p.Update(pagetest.Key("enter"))  // before its answer
	for _, msg := range []tea.Cmd{cmd} {
		if msg != nil {
			if name, ok := openedProject(msg()); ok {
				t.Fatalf("enter opened %q from the list the filter replaces", name)
			}
		}
	}
	_, out := pagetest.Drive(p, load)
	var opened []string
	for _, msg := range out {
		if name, ok := openedProject(msg); ok {
			opened = append(opened, name)
		}
	}
	if len(opened) != 1 || opened[0] != "Matter 042" {
		t.Errorf("opened %q, want the filtered list's first row, Matter 042", opened)
	}
}
