package app

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// offering is a page whose help lists every binding of the map, as a view
// that would use them all.
type offering struct {
	stub
	help []key.Binding
}

func (o *offering) Update(m tea.Msg) (page.Page, tea.Cmd) { o.got = append(o.got, m); return o, nil }
func (o *offering) Help() []key.Binding                   { return o.help }

func bindings(m keys.Map) []key.Binding {
	var out []key.Binding
	v := reflect.ValueOf(m)
	for i := range v.NumField() {
		if !v.Field(i).CanInterface() {
			continue
		}
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out = append(out, b)
		}
	}
	return out
}

// Issue 29.3: e over serve, D and u in a read-only session did nothing,
// silently. Every binding a session turns off, pressed on a page that
// offers it, is answered on the status line with why, and the page never
// gets the key; walks every binding in every kind of session.
func TestEveryGatedKeyIsAnswered(t *testing.T) {
	for _, s := range []keys.Session{{ReadOnly: true, Jobs: true}, {NoLocalFiles: true}, {ReadOnly: true, NoLocalFiles: true}, {}, {Jobs: true}} {
		km := keys.NewSession(s)
		env := pagetest.Env(t, &pagetest.Fake{BudgetStatus: api.BudgetStatus{Limit: 10, Remaining: 7}}, s.ReadOnly)
		env.Keys = km
		var top *offering
		m := New(env, Config{Start: "p", Getenv: func(string) string { return "" }, Routes: []Route{{Name: "p", New: func(env page.Env, _ string) page.Page {
			top = &offering{stub: stub{id: env.NewID(), title: "p"}, help: bindings(km)}
			return top
		}}}})
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 20})
		for _, b := range bindings(km) {
			if b.Enabled() {
				continue
			}
			for _, k := range b.Keys() {
				top.got = nil
				send(m, pagetest.Key(k))
				if v := m.View(); !strings.Contains(v, "is off: ") {
					t.Errorf("%+v: %q (%s) said nothing; screen:\n%s", s, k, b.Help().Desc, v)
				}
				if len(top.got) != 0 {
					t.Errorf("%+v: %q reached the page: %v", s, k, top.got)
				}
				send(m, pagetest.Key("j")) // the next key takes the notice away
				if strings.Contains(m.View(), "is off: ") {
					t.Errorf("%+v: the notice for %q stayed after the next key", s, k)
				}
			}
		}
	}
}

// A gated key is answered with why it is off wherever it is pressed: D
// on a page without a delete, in a read-only session, works nowhere in
// that session, and "not here" would send the user to a page where it is
// off too. The page never gets it.
func TestGatedKeyNotOfferedSaysWhyOff(t *testing.T) {
	m, _ := newApp(t, true)
	got := len(m.Top().(*stub).got)
	send(m, pagetest.Key("D"))
	if v := m.View(); !strings.Contains(v, "D (delete project) is off: this session is read-only") || len(m.Top().(*stub).got) != got {
		t.Errorf("D in a read-only session on a page without it:\n%s", v)
	}
}

// hinting is a page whose context keys name no use for enter.
type hinting struct{ stub }

func (h *hinting) Update(m tea.Msg) (page.Page, tea.Cmd) { h.got = append(h.got, m); return h, nil }
func (h *hinting) ContextKeys() []key.Binding            { return nil }

// Issue 29.3: enter where there is nothing to open did nothing, silently.
// A page whose hints name no use for enter still gets it, and the status
// line says there is nothing to open; a page that offers enter is left
// to answer it.
func TestEnterWithNothingToOpenSaysSo(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	var top *hinting
	m := New(env, Config{Start: "p", Getenv: func(string) string { return "" }, Routes: []Route{{Name: "p", New: func(env page.Env, _ string) page.Page {
		top = &hinting{stub: stub{id: env.NewID(), title: "p"}}
		return top
	}}}})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	send(m, pagetest.Key("enter"))
	if v := m.View(); !strings.Contains(v, nothingToOpen) || len(top.got) != 1 {
		t.Errorf("enter on a page with nothing to open: page got %v; screen:\n%s", top.got, v)
	}
	// a page without hints is taken at its word: its help offers enter
	var top2 *offering
	m2 := New(env, Config{Start: "p", Getenv: func(string) string { return "" }, Routes: []Route{{Name: "p", New: func(env page.Env, _ string) page.Page {
		top2 = &offering{stub: stub{id: env.NewID(), title: "p"}, help: []key.Binding{env.Keys.Enter}}
		return top2
	}}}})
	m2.Init()
	m2.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	send(m2, pagetest.Key("enter"))
	if strings.Contains(m2.View(), nothingToOpen) || len(top2.got) != 1 {
		t.Errorf("enter answered on a page that may act on it (page got %v)", top2.got)
	}
}

// choring is a page whose hint asks for the access crawl.
type choring struct{ stub }

func (c *choring) Update(m tea.Msg) (page.Page, tea.Cmd) { c.got = append(c.got, m); return c, nil }
func (c *choring) Chore() page.Chore                     { return page.ChoreCrawlAccess }

// Issue 29.7: L runs the chore the page's hint asks for as a task (footer
// spinner, outcome on the status line) where the session runs it itself
// (the demo); elsewhere it says to use the shell, in one line.
func TestRunHereRunsTheChoreAsATask(t *testing.T) {
	for _, demo := range []bool{true, false} {
		env := pagetest.Env(t, &pagetest.Fake{}, false)
		ran := false
		if demo {
			env.Chores = &page.Chores{CrawlAccess: func(context.Context, page.Progress) (page.Outcome, error) {
				ran = true
				return page.Outcome{Text: "access crawl: snapshot 1"}, nil
			}}
		}
		m := New(env, Config{Start: "p", Getenv: func(string) string { return "" }, Routes: []Route{{Name: "p", New: func(env page.Env, _ string) page.Page {
			return &choring{stub: stub{id: env.NewID(), title: "p"}}
		}}}})
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 20})
		send(m, pagetest.Key("L"))
		v := m.View()
		switch {
		case demo && (!ran || !strings.Contains(v, "access crawl: snapshot 1")):
			t.Errorf("demo: ran %v; screen:\n%s", ran, v)
		case !demo && !strings.Contains(v, "run `vaultdeck access crawl` in a shell"):
			t.Errorf("outside the demo L should point to the shell:\n%s", v)
		}
	}
}

// TestRunHereWhileTheChoreRuns: seen by hand in the demo at 120x40, while
// L's access crawl ran the view still said 'press L to run the access
// crawl here', and a second L answered 'access crawl failed: another
// access crawl of this profile is running' (the store's lock), which reads
// as the crawl having failed. While a chore runs its hint says so, L says
// it is already running and starts nothing; when it ends L is offered again.
func TestRunHereWhileTheChoreRuns(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	runs := 0
	env.Chores = &page.Chores{CrawlAccess: func(context.Context, page.Progress) (page.Outcome, error) {
		runs++
		return page.Outcome{Text: "access crawl: snapshot 1"}, nil
	}}
	m := New(env, Config{Start: "p", Getenv: func(string) string { return "" }, Routes: []Route{{Name: "p", New: func(env page.Env, _ string) page.Page {
		return &choring{stub: stub{id: env.NewID(), title: "p"}}
	}}}})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 20})
	_, cmd := m.Update(pagetest.Key("L"))
	_, pending := m.Update(cmd()) // the task starts; its run is held back
	if h := env.ChoreHint(page.ChoreCrawlAccess); h != "the access crawl is running here" {
		t.Errorf("while it runs the hint reads %q", h)
	}
	if _, again := m.Update(pagetest.Key("L")); again != nil {
		if _, ok := again().(page.StartTask); ok {
			t.Error("a second L started another crawl")
		}
	}
	if s := m.Status(); !strings.Contains(s, "L: the access crawl is already running here") {
		t.Errorf("a second L said %q", s)
	}
	for _, c := range pending().(tea.BatchMsg) { // run, then started, then the spinner
		if c != nil {
			send(m, c())
		}
	}
	if runs != 1 || !strings.Contains(env.ChoreHint(page.ChoreCrawlAccess), "press L") {
		t.Errorf("after the crawl: %d runs, hint %q", runs, env.ChoreHint(page.ChoreCrawlAccess))
	}
}
