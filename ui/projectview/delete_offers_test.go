package projectview

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

func offers(p page.Page, k string) bool {
	for _, b := range keys.Enabled(p.(page.KeyHinter).ContextKeys()...) {
		for _, bk := range b.Keys() {
			if bk == k {
				return true
			}
		}
	}
	return false
}

// Issue 29.5: while a project was being deleted its page still offered
// 'u upload · D delete'. The offers follow the deletion: gone while it
// runs and once accepted, back when the service refused it; u pressed
// meanwhile says why it does not open the upload.
func TestDeletingProjectOffersNoUploadOrDelete(t *testing.T) {
	for _, c := range []struct {
		name   string
		result *api.DeleteProjectResult
		after  bool // u and D offered once the task is done
	}{
		{"accepted", &api.DeleteProjectResult{Message: "Project deletion is in progress"}, false},
		{"refused", &api.DeleteProjectResult{Error: "Example projects cannot be deleted"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := fake()
			f.DeleteProjectFn = func(context.Context, string) (*api.DeleteProjectResult, error) { return c.result, nil }
			env := pagetest.Env(t, f, false)
			env.Keys = keys.NewSession(keys.Session{Jobs: true})
			p := FromRecord(env, api.Project{ID: "p1", Name: "Acme Merger", FilesCount: 2})
			p.SetSize(100, 20)
			p, _ = pagetest.Drive(p, p.Init())
			if !offers(p, "u") || !offers(p, "D") {
				t.Fatalf("before the deletion u and D should be offered: %v", p.(page.KeyHinter).ContextKeys())
			}
			p, _ = pagetest.Press(p, "D")
			p, _ = pagetest.Type(p, "Acme Merger")
			p, out := pagetest.Press(p, "enter")
			if offers(p, "u") || offers(p, "D") {
				t.Errorf("while deleting: %v", p.(page.KeyHinter).ContextKeys())
			}
			p, got := pagetest.Press(p, "u")
			if len(got) != 1 || !isStatus(got[0], "being deleted") {
				t.Errorf("u while deleting: %v", got)
			}
			p, _ = pagetest.RunTasks(p, out)
			if offers(p, "u") != c.after || offers(p, "D") != c.after {
				t.Errorf("after the %s deletion: %v", c.name, p.(page.KeyHinter).ContextKeys())
			}
		})
	}
}

func isStatus(msg any, part string) bool {
	s, ok := msg.(page.StatusMsg)
	return ok && strings.Contains(s.Text, part)
}
