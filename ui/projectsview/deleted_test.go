package projectsview

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// A project deleted from its own view disappears from the list below it
// without another request to the service.
func TestDeletedProjectLeavesList(t *testing.T) {
	f, _ := server()
	p := openList(t, f, nil)
	if !strings.Contains(p.View(), "Matter 000") {
		t.Fatalf("list not loaded:\n%s", p.View())
	}
	calls := f.Calls("Projects")
	p, _ = pagetest.Drive(p.Update(page.ProjectDeleted{ID: "p0"}))
	if v := p.View(); strings.Contains(v, "Matter 000") || !strings.Contains(v, "Matter 001") {
		t.Errorf("deleted project still listed:\n%s", v)
	}
	if f.Calls("Projects") != calls {
		t.Errorf("dropping a row asked the service again")
	}
	p, _ = pagetest.Drive(p.Update(page.ProjectDeleted{ID: "unknown"}))
	if !strings.Contains(p.View(), "Matter 001") {
		t.Error("an unknown ID changed the list")
	}
}
