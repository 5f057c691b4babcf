package app

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// `:view` replaces the stack above the root (as in k9s) instead of growing
// it: audit › projects › projects › recycle bin › recycle bin never happens.
func TestCommandReplacesStackAboveRoot(t *testing.T) {
	m, _ := newApp(t, false)
	for _, cmd := range []string{"rb", "files", "rb", "recyclebin"} {
		send(m, pagetest.Key(":"))
		typeLine(m, cmd)
		send(m, pagetest.Key("enter"))
	}
	if len(m.stack) != 2 || !strings.Contains(m.View(), "projects › recyclebin") || strings.Contains(m.View(), "files") {
		t.Fatalf("stack of %d:\n%s", len(m.stack), m.View())
	}
	send(m, pagetest.Key(":"))
	typeLine(m, "projects")
	send(m, pagetest.Key("enter"))
	if len(m.stack) != 1 {
		t.Errorf(":projects (the root's own view) left %d pages", len(m.stack))
	}
}

// A route that needs an argument refuses to open without a valid one.
func TestRouteRefusesBadArgument(t *testing.T) {
	m, _ := newApp(t, false)
	m.cfg.Routes = append(m.cfg.Routes, Route{Name: "project", New: func(page.Env, string) page.Page { return &stub{title: "project"} },
		Check: func(arg string) error {
			if arg == "" {
				return errors.New(":project needs a project ID")
			}
			return nil
		}})
	send(m, pagetest.Key(":"))
	typeLine(m, "project")
	send(m, pagetest.Key("enter"))
	if len(m.stack) != 1 || !strings.Contains(m.View(), ":project needs a project ID") {
		t.Fatalf("stack of %d:\n%s", len(m.stack), m.View())
	}
}

// Every command and alias is in the help.
func TestHelpListsEveryAlias(t *testing.T) {
	m, _ := newApp(t, false)
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	send(m, pagetest.Key("?"))
	v := m.View()
	for _, r := range m.cfg.Routes {
		for _, name := range append([]string{r.Name}, r.Aliases...) {
			if !strings.Contains(v, ":"+name) {
				t.Errorf("help lacks :%s:\n%s", name, v)
			}
		}
	}
}
