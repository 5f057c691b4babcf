package app_test

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/auditview"
	"github.com/vaultdeck/vaultdeck/ui/filestatusview"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/projectsview"
	"github.com/vaultdeck/vaultdeck/ui/projectview"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
)

// helpOf opens route on a fresh root and returns the `?` overlay. The
// start commands are never run: help depends on the key map only.
func helpOf(t *testing.T, route, arg string, readOnly bool) string {
	t.Helper()
	env := pagetest.Env(t, &pagetest.Fake{BudgetStatus: api.BudgetStatus{Unlimited: true}}, readOnly)
	m := app.New(env.WithConn(&account.Conn{Workspace: "W"}), app.Config{Start: route, StartArg: arg, Routes: []app.Route{
		{Name: "projects", New: projectsview.New},
		{Name: "project", New: projectview.New, FromRecord: projectview.Record},
		{Name: "recyclebin", New: recyclebinview.New},
		{Name: "audit", New: auditview.New},
		{Name: "files", New: func(env page.Env, arg string) page.Page {
			return filestatusview.New(env, arg, filestatusview.Options{})
		}},
	}})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
	return m.View()
}

// Each view's help lists its own actions, each description at most once,
// and never the delete key in a read-only session.
func TestHelpPerView(t *testing.T) {
	cases := []struct {
		route, arg string
		readOnly   bool
		want, not  []string
	}{
		{"projects", "", false, []string{"open", "filter", "copy id", "reverse sort"}, []string{"delete project", "add/paste", "cycle type"}},
		{"project", "p1", false, []string{"next tab", "cycle status filter", "send files", "mark row", "delete project"}, []string{"add/paste"}},
		{"project", "p1", true, []string{"next tab", "mark row"}, []string{"delete project", " D "}},
		{"recyclebin", "", true, []string{"client-matter filter", "copy id", "mark row", "show id to select"}, []string{"delete project"}},
		{"audit", "", false, []string{"cycle type filter", "type a type filter", "entry details"}, []string{"delete project", "add/paste"}},
		{"files", "f1", false, []string{"add/paste file IDs", "poll now"}, []string{"delete project", "cycle type"}},
	}
	for _, c := range cases {
		v := helpOf(t, c.route, c.arg, c.readOnly)
		for _, w := range c.want {
			if !strings.Contains(v, w) {
				t.Errorf("%s (read-only %v) help lacks %q:\n%s", c.route, c.readOnly, w, v)
			}
		}
		for _, n := range c.not {
			if strings.Contains(v, n) {
				t.Errorf("%s (read-only %v) help lists %q:\n%s", c.route, c.readOnly, n, v)
			}
		}
		for _, d := range []string{"refresh", "poll now", "filter", "copy id", "help"} {
			if strings.Count(v, "  "+d) > 1 {
				t.Errorf("%s help lists %q twice:\n%s", c.route, d, v)
			}
		}
	}
}
