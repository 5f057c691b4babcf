package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29 item 2: D on the projects list (a page that does not offer it)
// did nothing and said nothing. A page action key the page on top does not
// offer is still the page's, and the line says in one line why it did
// nothing here.
func TestActionKeyThePageDoesNotOfferSaysWhy(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	var top *hinting
	m := New(env, Config{Start: "p", Getenv: func(string) string { return "" }, Routes: []Route{{Name: "p", New: func(env page.Env, _ string) page.Page {
		top = &hinting{stub: stub{id: env.NewID(), title: "p"}}
		return top
	}}}})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	send(m, pagetest.Key("D"))
	if v := m.View(); !strings.Contains(v, "D (delete project)") || len(top.got) != 1 {
		t.Errorf("D on a page that does not offer it: page got %v; screen:\n%s", top.got, v)
	}
}
