package projectview

import (
	"context"
	"slices"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// A deletion task drops the cached project list and recycle bin when it
// ends (the root forgets its Invalidates); an accepted deletion is also
// announced so the list below drops the row.
func TestDeleteInvalidatesCaches(t *testing.T) {
	cases := []struct {
		name      string
		result    *api.DeleteProjectResult
		announced bool
	}{
		{"accepted", &api.DeleteProjectResult{Message: "Project deletion is in progress"}, true},
		{"partial", &api.DeleteProjectResult{Error: "partially failed",
			Details: &api.DeleteProjectDetails{FailedFolders: 1}}, false},
		{"refused", &api.DeleteProjectResult{Error: "Example projects cannot be deleted"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := fake()
			f.DeleteProjectFn = func(context.Context, string) (*api.DeleteProjectResult, error) { return c.result, nil }
			env := pagetest.Env(t, f, false)
			p := FromRecord(env, api.Project{ID: "p1", Name: "Acme Merger", FilesCount: 2})
			p.SetSize(100, 20)
			p, _ = pagetest.Drive(p, p.Init())
			p, _ = pagetest.Press(p, "D")
			p, _ = pagetest.Type(p, "Acme Merger")
			p, out := pagetest.Press(p, "enter")
			var invalidates []string
			for _, m := range out {
				if st, ok := m.(page.StartTask); ok {
					invalidates = st.Invalidates
				}
			}
			if !slices.Contains(invalidates, person.CacheProjects) || !slices.Contains(invalidates, person.CacheRecycleBin) {
				t.Errorf("the deletion task invalidates %v", invalidates)
			}
			_, done := pagetest.RunTasks(p, out)
			d, ok := done[0].Outcome.Broadcast.(page.ProjectDeleted)
			announced := ok && d.ID == "p1"
			if announced != c.announced {
				t.Errorf("ProjectDeleted sent=%v, want %v", announced, c.announced)
			}
		})
	}
}
