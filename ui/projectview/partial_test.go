package projectview

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29.3's drill-down, seen by hand over serve at 120x40: a project
// opened from a person's access list read 'Acme Corp v. Halvorsen — Patent
// Litigation · 0 files' over a Files tab of 35: the access snapshot knows
// the project's name, not its count, and the page said 0. A project known
// by name only shows the name at once, says no count it does not know,
// and looks the record up quietly (the users load meanwhile).
func TestProjectKnownByNameSaysNoCountItDoesNotKnow(t *testing.T) {
	f := fake()
	f.ProjectsFn = listing(api.Project{ID: acmeID, Name: "Acme Merger", FilesCount: 35})
	env := pagetest.Env(t, f, false)
	p := Record(env, page.ProjectName{ID: acmeID, Name: "Acme Merger"})
	if p == nil {
		t.Fatal("the route opens no page from a project known by name")
	}
	p.SetSize(100, 20)
	if v := p.View(); strings.Contains(v, "0 files") || !strings.Contains(v, "Acme Merger") {
		t.Errorf("before the lookup:\n%s", v)
	}
	p, _ = pagetest.Drive(p, p.Init())
	if v := p.View(); !strings.Contains(v, "35 files") || f.Calls("ProjectUsers") != 1 {
		t.Errorf("after the lookup (users loaded %d times):\n%s", f.Calls("ProjectUsers"), v)
	}
}
