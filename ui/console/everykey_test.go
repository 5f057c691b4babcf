package console

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

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
