package project

import (
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

func statuses(out []tea.Msg) []page.StatusMsg {
	var s []page.StatusMsg
	for _, m := range out {
		if st, ok := m.(page.StatusMsg); ok {
			s = append(s, st)
		}
	}
	return s
}

// After the service acted on a deletion the cached project list and
// recycle bin are dropped; an accepted deletion is also announced so the
// list below drops the row. A refusal changes nothing.
func TestDeleteInvalidatesCaches(t *testing.T) {
	cases := []struct {
		name      string
		result    *api.DeleteProjectResult
		forget    bool
		announced bool
	}{
		{"accepted", &api.DeleteProjectResult{Message: "Project deletion is in progress"}, true, true},
		{"partial", &api.DeleteProjectResult{Error: "partially failed",
			Details: &api.DeleteProjectDetails{FailedFolders: 1}}, true, false},
		{"refused", &api.DeleteProjectResult{Error: "Example projects cannot be deleted"}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := fake()
			f.DeleteProjectFn = func(context.Context, string) (*api.DeleteProjectResult, error) { return c.result, nil }
			cache := &pagetest.MapCache{}
			cache.Put(page.CacheProjects, []byte(`{}`))
			cache.Put(page.CacheRecycleBin, []byte(`{}`))
			env := pagetest.Env(t, f, false)
			env.Cache = cache
			p := FromRecord(env, api.Project{ID: "p1", Name: "Acme Merger", FilesCount: 2})
			p.SetSize(100, 20)
			p, _ = pagetest.Drive(p, p.Init())
			p, _ = pagetest.Press(p, "D")
			p, _ = pagetest.Type(p, "Acme Merger")
			_, out := pagetest.Press(p, "enter")
			for _, k := range []string{page.CacheProjects, page.CacheRecycleBin} {
				if _, _, ok := cache.Get(k); ok == c.forget {
					t.Errorf("cache %q present=%v after %s", k, ok, c.name)
				}
			}
			announced := false
			for _, m := range out {
				if d, ok := m.(page.ProjectDeleted); ok && d.ID == "p1" {
					announced = true
				}
			}
			if announced != c.announced {
				t.Errorf("ProjectDeleted sent=%v, want %v", announced, c.announced)
			}
		})
	}
}
