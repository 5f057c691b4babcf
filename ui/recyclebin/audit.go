package recyclebin

import (
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// auditLead is how long before a deletion the audit log opens: the entry
// selected is the first at or after it, so what the deleter did just
// before is on screen too.
const auditLead = time.Minute

// auditAround opens the audit log (A) around the selected entry's deletion,
// filtered by its deleter: ":audit TIME EMAIL", a route, so this view does
// not import the audit view.
func (m *Model) auditAround() tea.Cmd {
	e := m.selected()
	if e == nil {
		return nil
	}
	if e.DeletedAt.IsZero() {
		return page.Error(errors.New("this entry has no deletion time to open the audit log at"))
	}
	arg := e.DeletedAt.UTC().Add(-auditLead).Format(time.RFC3339)
	if who := sanitize.Line(e.DeletedByUserEmail); who != "" {
		arg += " " + who
	}
	return page.OpenRoute("audit", arg)
}
