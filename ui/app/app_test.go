package app

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// stub is a minimal page for routing tests.
type stub struct {
	id    page.ID
	title string
	arg   string
	got   []tea.Msg
	esc   bool // WantsEsc
}

func (s *stub) Init() tea.Cmd                         { return nil }
func (s *stub) Update(m tea.Msg) (page.Page, tea.Cmd) { s.got = append(s.got, m); return s, nil }
func (s *stub) View() string                          { return "body of " + s.title + " " + s.arg }
func (s *stub) SetSize(int, int)                      {}
func (s *stub) Title() string                         { return s.title }
func (s *stub) Help() []key.Binding                   { return nil }
func (s *stub) ID() page.ID                           { return s.id }
func (s *stub) SelectedID() string                    { return "sel-\x1b[2J" + s.title }
func (s *stub) WantsEsc() bool                        { return s.esc }

type scoped struct{ to page.ID }

func (s scoped) Target() page.ID { return s.to }

func routes() []Route {
	mk := func(name string) func(page.Env, string) page.Page {
		return func(env page.Env, arg string) page.Page { return &stub{id: env.NewID(), title: name, arg: arg} }
	}
	return []Route{{Name: "projects", New: mk("projects")}, {Name: "recyclebin", Aliases: []string{"rb"}, New: mk("recyclebin")},
		{Name: "files", New: mk("files")}}
}

func newApp(t *testing.T, readOnly bool) (*Model, *bytes.Buffer) {
	env := pagetest.Env(t, &pagetest.Fake{BudgetStatus: api.BudgetStatus{Limit: 10, Remaining: 7}}, readOnly)
	var out bytes.Buffer
	env.Output = &out
	m := New(env.WithConn(&account.Conn{Profile: "prod", Where: "eu", Workspace: "Firm \x1b]0;x\x07LLP", Warning: "token in plain file"}), Config{Routes: routes(), Start: "projects", Getenv: func(string) string { return "" }})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	return m, &out
}

// send delivers msg and then every command's message, synchronously.
func send(m *Model, msg tea.Msg) []tea.Msg {
	var seen []tea.Msg
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		_, cmd := m.Update(next)
		if cmd == nil {
			continue
		}
		switch r := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range r {
				if c != nil {
					queue = append(queue, c())
				}
			}
		case tea.QuitMsg:
			seen = append(seen, r)
		default:
			queue = append(queue, r)
		}
	}
	return seen
}

func typeLine(m *Model, s string) {
	for _, r := range s {
		send(m, pagetest.Key(string(r)))
	}
}

func TestHeaderAndBreadcrumbs(t *testing.T) {
	m, _ := newApp(t, true)
	v := m.View()
	for _, want := range []string{"vaultdeck", "prod", "eu", "Firm LLP", "READ-ONLY", "token in plain file", "vault 7/10", "projects", "body of projects"} {
		if !strings.Contains(v, want) {
			t.Errorf("missing %q in\n%s", want, v)
		}
	}
	if strings.ContainsAny(v, "\x1b\x07") {
		t.Error("escape in header")
	}
	if n := strings.Count(v, "\n") + 1; n != 20 {
		t.Errorf("%d lines, want 20", n)
	}
}

func TestCommandLineOpensRouteAndEscGoesBack(t *testing.T) {
	m, _ := newApp(t, false)
	send(m, pagetest.Key(":"))
	typeLine(m, "rec")
	send(m, pagetest.Key("tab"))
	typeLine(m, "x1")
	send(m, pagetest.Key("enter"))
	if top := m.Top().(*stub); top.title != "recyclebin" || top.arg != "x1" {
		t.Fatalf("top %+v", top)
	}
	if !strings.Contains(m.View(), "projects › recyclebin") {
		t.Errorf("breadcrumbs:\n%s", m.View())
	}
	send(m, pagetest.Key("esc"))
	if m.Top().Title() != "projects" {
		t.Error("esc did not go back")
	}
	send(m, pagetest.Key("esc")) // the first page stays
	if m.Top() == nil {
		t.Fatal("esc emptied the stack")
	}
	send(m, pagetest.Key(":"))
	typeLine(m, "nosuch")
	send(m, pagetest.Key("enter"))
	if !strings.Contains(m.View(), `there is no command "nosuch"`) {
		t.Errorf("unknown command not reported:\n%s", m.View())
	}
}

func TestEscGoesToPageFirstWhenItWantsIt(t *testing.T) {
	m, _ := newApp(t, false)
	send(m, page.Open{Route: "files", Arg: "a,b"})
	top := m.Top().(*stub)
	top.esc = true
	send(m, pagetest.Key("esc"))
	if m.Top() != top || len(top.got) == 0 {
		t.Error("esc should have gone to the page")
	}
}

func TestScopedMessagesReachTheirView(t *testing.T) {
	m, _ := newApp(t, false)
	first := m.Top().(*stub)
	send(m, page.Open{Route: "files"})
	send(m, scoped{to: first.id})
	if len(first.got) != 1 || len(m.Top().(*stub).got) != 0 {
		t.Error("scoped message misrouted")
	}
	send(m, scoped{to: 999}) // gone: dropped, no panic
}

func TestStatusErrorSanitizedAndQuit(t *testing.T) {
	m, _ := newApp(t, false)
	send(m, page.StatusMsg{Err: errors.New("boom \x1b[2J\x1b]52;c;eA==\x07 rate limited")})
	v := m.View()
	if !strings.Contains(v, "boom  rate limited") || strings.ContainsAny(v, "\x1b\x07") {
		t.Errorf("status %q", v)
	}
	if out := send(m, pagetest.Key("q")); len(out) != 1 {
		t.Error("q did not quit")
	}
}

func TestCopyWritesOSC52(t *testing.T) {
	m, out := newApp(t, false)
	send(m, pagetest.Key("y"))
	s := out.String()
	if !strings.HasPrefix(s, "\x1b]52;c;") || !strings.Contains(m.View(), "sent sel-projects to the terminal's clipboard") {
		t.Errorf("osc52 %q view %s", s, m.View())
	}
}

func TestHelpOverlayFollowsReadOnly(t *testing.T) {
	m, _ := newApp(t, true)
	send(m, pagetest.Key("?"))
	v := m.View()
	if !strings.Contains(v, "command") || strings.Contains(v, "delete project") {
		t.Errorf("help:\n%s", v)
	}
	send(m, pagetest.Key("?"))
	if strings.Contains(m.View(), "press ? or esc") {
		t.Error("help did not close")
	}
}

func TestWhoAmIFillsWorkspace(t *testing.T) {
	fake := &pagetest.Fake{WhoAmIFn: func(context.Context) (*api.WhoAmI, error) {
		return &api.WhoAmI{WorkspaceName: "Halvorsen & Co"}, nil
	}}
	m := New(pagetest.Env(t, fake, false), Config{Routes: routes(), Start: "projects"})
	send(m, m.Init()())
	send(m, tea.WindowSizeMsg{Width: 80, Height: 10})
	if !strings.Contains(m.View(), "Halvorsen & Co") {
		t.Errorf("workspace missing:\n%s", m.View())
	}
}
