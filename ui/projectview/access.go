package projectview

// Changing who reaches the project from its Users tab (issue 43): = turns
// the selected user's level READ to MANAGE or back, X removes their direct
// share, each through ui/accesstask (the plan made now by access plan's
// planner, its typed count, the access write job). An inherited or owned
// row plans nothing and says where it is changed.

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// askUserChange plans the selected user's level flipped (level) or their
// direct share removed.
func (m *Model) askUserChange(level bool) tea.Cmd {
	if m.going() {
		return page.Status("this project is being deleted")
	}
	r, ok := m.Tabs[tabUsers].Selected()
	if !ok || len(r.Cells) < 3 {
		return page.Status("no user selected: move to a user on the Users tab")
	}
	email := strings.TrimSpace(r.Cells[1])
	for _, u := range m.userList {
		if u.UserID == r.ID {
			email = u.Email
		}
	}
	w := change.Want{ProjectID: m.proj.ID, Email: email}
	src := fmt.Sprintf("remove %s from %s (the console's Users tab)", email, m.proj.ID)
	if level {
		w.Level = api.AccessManage
		if strings.EqualFold(r.Cells[2], api.AccessManage) {
			w.Level = api.AccessRead
		}
		src = fmt.Sprintf("%s for %s on %s (the console's Users tab)", w.Level, email, m.proj.ID)
	}
	return m.access.Ask(m.env, m.id, src, []change.Want{w}, nil)
}
