package accesstask

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// granting is a grant being typed: the project it is for, and the prompt.
type granting struct {
	projectID, name string
	line            *widgets.CommandLine
}

// AskGrant opens a prompt for an address and a level (READ when none is
// typed) to give on the project; enter plans it with Ask, as `access plan
// --set` would a row of the project, e-mail and level.
func (f *Flow) AskGrant(env page.Env, projectID, name string) tea.Cmd {
	if why := Why(env); why != "" {
		return page.Status(why)
	}
	if f.running {
		return page.Status("an access change of this page is running: its outcome comes first")
	}
	f.grant = &granting{projectID: projectID, name: name,
		line: widgets.NewPrompt(env.Theme, "grant access: ", nil)}
	return page.Status("type EMAIL and READ or MANAGE (READ if none): enter plans it, esc cancels")
}

// grantKey takes a key while the prompt is open.
func (f *Flow) grantKey(env page.Env, id page.ID, msg tea.KeyMsg) tea.Cmd {
	line, done, cancelled := f.grant.line.Update(msg)
	if !done {
		return nil
	}
	g := f.grant
	f.grant = nil
	if cancelled {
		return page.Status("nothing was changed")
	}
	w, err := ParseGrant(g.projectID, line)
	if err != nil {
		return page.Error(err)
	}
	src := fmt.Sprintf("%s for %s on %s (the console's Users tab: grant)", w.Level, w.Email, g.projectID)
	return f.Ask(env, id, src, []change.Want{w}, nil)
}

// ParseGrant reads "EMAIL [READ|MANAGE]" into the want of a direct share
// on projectID; the level is READ when none is typed.
func ParseGrant(projectID, line string) (change.Want, error) {
	f := strings.Fields(line)
	switch {
	case len(f) == 0:
		return change.Want{}, fmt.Errorf("no address typed: nothing was changed")
	case len(f) > 2:
		return change.Want{}, fmt.Errorf("type an address and a level (READ or MANAGE), nothing more: nothing was changed")
	case !strings.Contains(f[0], "@") || strings.HasPrefix(f[0], "@") || strings.HasSuffix(f[0], "@"):
		return change.Want{}, fmt.Errorf("%q is not an e-mail address: nothing was changed", sanitize.Line(f[0]))
	}
	w := change.Want{ProjectID: projectID, Email: strings.ToLower(f[0]), Level: api.AccessRead}
	if len(f) == 2 {
		switch strings.ToUpper(f[1]) {
		case api.AccessRead, api.AccessManage:
			w.Level = strings.ToUpper(f[1])
		default:
			return change.Want{}, fmt.Errorf("%q is not a level: READ or MANAGE; nothing was changed", sanitize.Line(f[1]))
		}
	}
	return w, nil
}
