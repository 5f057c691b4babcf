package app

import (
	"errors"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// A view opens another without importing it: page.Open names the route
// and may carry the record the opener holds. The route builds the page
// from the record (no request to look it up); without a record, or with
// one the route does not take, it opens from the argument as ":route arg"
// would, Check included.
func TestOpenCarriesARecordToTheRoute(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{BudgetStatus: api.BudgetStatus{Unlimited: true}}, false)
	var fromArg []string
	rt := Route{Name: "thing",
		New: func(env page.Env, arg string) page.Page {
			fromArg = append(fromArg, arg)
			return &stub{id: env.NewID(), title: "by arg"}
		},
		Check: func(arg string) error {
			if arg == "bad" {
				return errors.New("refused")
			}
			return nil
		},
		FromRecord: func(env page.Env, rec any) page.Page {
			name, ok := rec.(string)
			if !ok {
				return nil
			}
			return &stub{id: env.NewID(), title: name}
		}}
	m := New(env, Config{Routes: append(routes(), rt), Start: "projects", Getenv: func(string) string { return "" }})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})

	send(m, page.Open{Route: "thing", Arg: "bad", Record: "from the list"})
	if m.Top().Title() != "from the list" || len(fromArg) != 0 {
		t.Fatalf("with a record: top %q, opened by arg %v", m.Top().Title(), fromArg)
	}
	send(m, page.Open{Route: "thing", Arg: "x1", Record: 42}) // not a record the route takes
	if m.Top().Title() != "by arg" || len(fromArg) != 1 || fromArg[0] != "x1" {
		t.Fatalf("with a foreign record: top %q, opened by arg %v", m.Top().Title(), fromArg)
	}
	send(m, page.Open{Route: "thing", Arg: "bad"})
	if len(fromArg) != 1 {
		t.Fatalf("without a record the argument is checked as typed: opened by arg %v", fromArg)
	}
}
