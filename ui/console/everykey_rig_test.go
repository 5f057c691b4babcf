package console

import (
	"context"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// keyMsg is the KeyMsg a terminal sends for k, as tea.KeyMsg.String
// spells it ("shift+tab", "ctrl+t", "j").
func keyMsg(k string) tea.KeyMsg {
	for t := tea.KeyType(-200); t < 200; t++ {
		if t != tea.KeyRunes && (tea.KeyMsg{Type: t}).String() == k {
			return tea.KeyMsg{Type: t}
		}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// allKeys is every key of every binding of the map, enabled or not.
func allKeys(m keys.Map) []string {
	var out []string
	v := reflect.ValueOf(m)
	for i := range v.NumField() {
		if !v.Field(i).CanInterface() {
			continue
		}
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			for _, k := range b.Keys() {
				if !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// runner drives the root model as the program would, its commands in
// goroutines and their messages back in this one, without the timers:
// spinner and clock ticks are dropped, and a command still running at a
// bound is left (a poll's timer), its message never delivered.
type runner struct {
	m       *app.Model
	ch      chan tea.Msg
	pending int
}

func (r *runner) start(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	r.pending++
	go func() { r.ch <- cmd() }()
}

func (r *runner) send(msg tea.Msg) { _, cmd := r.m.Update(msg); r.start(cmd) }

func (r *runner) deliver(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil, spinner.TickMsg, page.ClockTick, tea.QuitMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			r.start(c)
		}
	default:
		// tea.Sequence's message is unexported ([]tea.Cmd): its commands,
		// started here as a batch's (what a key says is looked for, not when)
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
			for i := range v.Len() {
				c, _ := v.Index(i).Interface().(tea.Cmd)
				r.start(c)
			}
			return
		}
		r.send(msg)
	}
}

// until delivers messages until done reports true, nothing is running, or
// bound passed; it reports done's last answer.
func (r *runner) until(done func() bool, bound time.Duration) bool {
	stop := time.After(bound)
	for !done() {
		if r.pending == 0 {
			return false
		}
		select {
		case msg := <-r.ch:
			r.pending--
			r.deliver(msg)
		case <-stop:
			return done()
		}
	}
	return true
}

// keyState is a screen to press every key on: a route, then keys, each
// waited for with the text it brings.
type keyState struct {
	name, route string
	arg         func(e *keyEnv) string
	steps       [][2]string           // key, text then on screen
	wait, also  string                // texts of the state loaded, in one frame or the next
	local       bool                  // a view of local files: not in a session without them
	input       bool                  // a text input has the keyboard: every key is text
	writes      bool                  // a view of the write jobs (upload, matters): only in a session that runs them
	session     func(Options) Options // what the state needs of the session (a held matter service)
	off         bool                  // a view of the write jobs as a session without them shows it (it says why)
}

type keyEnv struct {
	opts   Options
	sim    *sim.Server
	leaver string
}

func newKeyEnv(t *testing.T) *keyEnv {
	now := func() time.Time { return pagetest.Now }
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Now: now, NoRateLimit: true, Leaver: true}})
	c := e.Client
	st, err := store.Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	if _, err := (&access.Crawler{API: c, Store: st, Profile: "sim", Now: now}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := (&audit.Job{Svc: c, Mirror: st, Clock: pinned{}}).Sync(ctx); err != nil {
		t.Fatal(err)
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return &keyEnv{sim: e.Sim, leaver: e.Sim.Leaver(), opts: Options{Backend: c, Jobs: ClientJobs(c),
		Conn:  &account.Conn{Profile: "sim", DataProfile: "sim", Where: "local", Workspace: "Harrowgate LLP"},
		Theme: "dark", Renderer: r, Journal: st, Receipts: st, Cache: StoreCache{Store: st, Profile: "sim", Now: now}, Now: now}}
}

func (e *keyEnv) project(t *testing.T) sim.ProjectInfo {
	for _, p := range e.sim.Projects() {
		if !p.Deleted && !p.DeleteInProgress && !p.Example {
			return p
		}
	}
	t.Fatal("no live project in the seed")
	return sim.ProjectInfo{}
}

// open builds the console on state s in session o, at 120x40, and waits
// for its texts.
func (e *keyEnv) open(t *testing.T, o Options, s keyState) *runner {
	t.Helper()
	o.Start = s.route
	if s.arg != nil {
		o.StartArg = s.arg(e)
	}
	if s.session != nil {
		o = s.session(o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel) // a held run ends with the test
	m, err := NewModel(ctx, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{m: m, ch: make(chan tea.Msg, 1024)}
	r.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	r.start(m.Init())
	shows := func(text string) func() bool { return func() bool { return strings.Contains(m.View(), text) } }
	if !r.until(shows(s.wait), 10*time.Second) || s.also != "" && !r.until(shows(s.also), 10*time.Second) {
		t.Errorf("%s: %q never showed:\n%s", s.name, s.wait, m.View())
	}
	for _, st := range s.steps {
		r.send(keyMsg(st[0]))
		if !r.until(shows(st[1]), 10*time.Second) {
			t.Errorf("%s: after %q, %q never showed (status %q):\n%s", s.name, st[0], st[1], m.Status(), m.View())
		}
	}
	return r
}

// changedFrom reports whether the screen changed from before (drawn with
// an empty status line): the whole of it while the status line is empty
// (the command line opens there), else all but its last line, where the
// status line stands in for the footer (one line at 120 columns).
func changedFrom(before string, m *app.Model) bool {
	v := m.View()
	if m.Status() == "" {
		return v != before
	}
	cut := func(s string) string { return s[:strings.LastIndex(s, "\n")] }
	return cut(v) != cut(before)
}

// answersOfTheRoot are the root's own lines for a key that did nothing.
var answersOfTheRoot = []string{" is off: ", ": not here", ": not on this page", ": nothing to "}

func rootAnswer(s string) bool {
	for _, a := range answersOfTheRoot {
		if strings.Contains(s, a) {
			return true
		}
	}
	return false
}
