package console

import (
	"context"
	"fmt"
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
	"github.com/charmbracelet/x/ansi"
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

// Issue 29.3: every key either acts or says in one line why not. Every key
// of every binding of the map (enabled or not) is pressed on every view,
// in each of its main states (the matters view's list, preview, run and
// receipt too, where the session has it), in every kind of session
// (local, local read-only, serve, serve with writes): it must change the
// screen or put a line on the status line, and a line of the root saying
// it did nothing must not come with a change, nor pass 60 columns. Keys
// at an edge of a list (j on the last row) may be silent; keys typed into
// an input are text and get no answer. q and ctrl+c quit, and are left
// out.
func TestEveryKeyActsOrSaysWhy(t *testing.T) {
	t.Chdir(t.TempDir()) // e writes its CSV files here
	e := newKeyEnv(t)
	fx := e.matters(t)
	pid := func(e *keyEnv) string { return e.project(t).ID }
	states := []keyState{
		{name: "projects", route: "projects", wait: "12 of 12 loaded"},
		{name: "project users", route: "project", arg: pid, wait: "tab files", also: "1/"},
		{name: "project files", route: "project", arg: pid, wait: "tab files", also: "1/", steps: [][2]string{{"tab", "enter file status"}}},
		{name: "bin", route: "bin", wait: "30 entries"},
		{name: "bin by deleter", route: "bin", wait: "30 entries", steps: [][2]string{{"b", "their entries"}}},
		{name: "bin detail", route: "bin", wait: "30 entries", steps: [][2]string{{"enter", "audit log"}}},
		{name: "audit", route: "audit", wait: "own reads", also: "1/"},
		{name: "audit detail", route: "audit", wait: "own reads", also: "1/", steps: [][2]string{{"enter", "esc close"}}},
		{name: "file status", route: "project", arg: pid, wait: "tab files", also: "1/", steps: [][2]string{{"tab", "enter file status"}, {"s", "next poll in"}}},
		{name: "a deleter's entries", route: "bin", wait: "30 entries", steps: [][2]string{{"b", "their entries"}, {"enter", "esc all deleters"}}},
		{name: "activity", route: "activity", arg: func(*keyEnv) string { return "2d" }, wait: "hourly"},
		{name: "access people", route: "access", wait: "projects", also: "1/"},
		{name: "access person", route: "access", wait: "projects", also: "1/", steps: [][2]string{{"enter", "open project"}}},
		{name: "access changes", route: "access", wait: "projects", also: "1/", steps: [][2]string{{"tab", "people"}}},
		{name: "person", route: "person", arg: func(e *keyEnv) string { return e.leaver }, wait: "▸ Reach"},
		{name: "the command pane (C)", route: "projects", wait: "12 of 12 loaded", steps: [][2]string{{"C", "vaultdeck projects"}}},
		{name: "the ID whole (Y)", route: "projects", wait: "12 of 12 loaded", steps: [][2]string{{"Y", "esc"}}},
		{name: "matters", route: "matters", wait: "Matter receipts", local: true, writes: true},
		{name: "matters preview", route: "matters", arg: func(*keyEnv) string { return fx.file }, wait: "Preview of march-closures.csv", local: true, writes: true},
		{name: "matters run", route: "matters", arg: func(*keyEnv) string { return fx.file }, wait: "Preview of march-closures.csv", local: true, writes: true,
			steps:   [][2]string{{"X", "Type 2 to confirm"}, {"2", "Delete client matters"}, {"enter", "Deleting client matters"}},
			session: func(o Options) Options { o.Jobs = &page.Jobs{Matters: heldMatters{o.Jobs.Matters}}; return o }},
		{name: "matters, turned off", route: "matters", wait: "not available in a read-only session", local: true, off: true},
		{name: "matters receipt", route: "matters", wait: "february-closures.csv", local: true, writes: true,
			steps: [][2]string{{"G", "february-closures.csv"}, {"enter", fmt.Sprintf("Receipt %d ", fx.receipt)}}},
		{name: "file IDs prompt", route: "files", wait: "file IDs:", input: true},
		{name: "upload form", route: "upload", arg: func(e *keyEnv) string { p := e.project(t); return p.ID + " " + p.Name }, wait: "path:", local: true, input: true, writes: true},
	}
	sessions := []struct {
		name              string
		readOnly, noLocal bool
		jobs              bool
	}{
		{name: "local", jobs: true},
		{name: "local read-only", readOnly: true, jobs: true},
		{name: "serve", readOnly: true, noLocal: true},
		{name: "serve with writes", noLocal: true},
	}
	for _, sess := range sessions {
		o := e.opts
		o.ReadOnly, o.NoLocalFiles = sess.readOnly, sess.noLocal
		if !sess.jobs {
			o.Jobs = nil
		}
		t.Run(sess.name, func(t *testing.T) {
			// not parallel: on CI's two cores the walks would only contend
			km := keys.NewSession(keys.Session{ReadOnly: sess.readOnly, NoLocalFiles: sess.noLocal, Jobs: sess.jobs})
			// moving at an edge (j on the last row, esc on the first page) may be silent
			nav := keys.Enabled(km.Up, km.Down, km.PageUp, km.PageDown, km.Top, km.Bottom, km.Back, km.Earlier, km.Later)
			for _, s := range states {
				if s.local && sess.noLocal || s.writes && !km.Upload.Enabled() || s.off && km.Upload.Enabled() {
					continue
				}
				var r *runner
				for _, k := range allKeys(km) {
					// q and ctrl+c quit; of a way to move, one key is enough
					// (the others are the same binding, and each move means a
					// new screen for the next key)
					if k == "q" || k == "ctrl+c" || slices.ContainsFunc(nav, func(b key.Binding) bool { return slices.Index(b.Keys(), k) > 0 }) {
						continue
					}
					if r == nil {
						r = e.open(t, o, s)
					}
					m := r.m
					r.send(page.StatusMsg{}) // the line is empty before each key
					before := m.View()
					// the key's own commands, apart from those still running
					r = &runner{m: m, ch: make(chan tea.Msg, 1024)}
					r.send(keyMsg(k))
					// one drawing per look: the screen is drawn once per message
					var changed, said bool
					look := func() bool {
						changed, said = changedFrom(before, m), m.Status() != ""
						return changed || said
					}
					if !look() {
						r.until(look, 2*time.Second)
					}
					where := sess.name + " · " + s.name + ": " + k
					switch {
					case s.input && rootAnswer(m.Status()):
						t.Errorf("%s was typed into an input, and the root answered %q", where, m.Status())
					case s.input:
					case rootAnswer(m.Status()) && ansi.StringWidth(m.Status()) > keys.AnswerWidth:
						t.Errorf("%s answered %q: %d columns, over %d", where, m.Status(), ansi.StringWidth(m.Status()), keys.AnswerWidth)
					case changed && rootAnswer(m.Status()):
						t.Errorf("%s changed the screen, yet the line says it did nothing: %q", where, m.Status())
					case !changed && !said && r.pending == 0 && !slices.ContainsFunc(nav, func(b key.Binding) bool { return slices.Contains(b.Keys(), k) }):
						t.Errorf("%s did nothing and said nothing:\n%s", where, m.View())
					}
					if changed {
						r = nil // the next key starts from the state again
					}
				}
			}
		})
	}
}

// The key map's homes (where a key of one or two views works, which the
// line for it elsewhere names) are the views that offer it: every route
// whose page lists a key with homes is among them, and every home lists
// it. A view that takes up a key, or gives one up, fails here until the
// map says so.
func TestHomesAreTheViewsThatOfferThem(t *testing.T) {
	env := pagetest.WithJobs(pagetest.Env(t, &pagetest.Fake{}, false), page.Jobs{})
	km := env.Keys
	fields := map[string]key.Binding{}
	v := reflect.ValueOf(km)
	for i := range v.NumField() {
		if !v.Field(i).CanInterface() {
			continue
		}
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			fields[v.Type().Field(i).Name] = b
		}
	}
	offered := map[string][]string{} // route: the keys its page lists
	for _, r := range routes(Options{}) {
		p := r.New(env, "")
		bs := p.Help()
		if h, ok := p.(page.KeyHinter); ok {
			bs = append(bs, h.ContextKeys()...)
		}
		for _, b := range keys.Enabled(bs...) {
			offered[r.Name] = append(offered[r.Name], b.Keys()...)
		}
	}
	for route, ks := range offered {
		for _, k := range ks {
			var homes []string
			for name, b := range fields {
				if slices.Contains(b.Keys(), k) {
					homes = append(homes, keys.Homes(name)...)
				}
			}
			if len(homes) > 0 && !slices.Contains(homes, route) {
				t.Errorf(":%s offers %q, whose homes are %v", route, k, homes)
			}
		}
	}
	for name := range fields {
		for _, route := range keys.Homes(name) {
			if route == "matters" {
				continue // its help follows its mode (a file read, a run), which an empty page does not reach
			}
			if !slices.Contains(offered[route], fields[name].Keys()[0]) {
				t.Errorf("%s's homes name :%s, which does not offer %q", name, route, fields[name].Keys()[0])
			}
		}
	}
}
