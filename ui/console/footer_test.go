package console

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// The footer names the keys that act on the view and row on screen, from
// the key map: read-only takes the mutating ones away there too.
func TestFooterShowsTheKeysThatAct(t *testing.T) {
	cases := []struct {
		name     string
		readOnly bool
		route    string
		arg      func(s *screen) string
		keys     []tea.KeyMsg
		wait     string
		want     []string
		not      []string
	}{
		{name: "projects", route: "projects", wait: "loaded",
			want: []string{"enter open", "/ filter", "? help"}, not: []string{"tab", "D delete"}},
		{name: "project users", route: "project", arg: func(s *screen) string { return s.project(t).ID }, wait: "Users",
			want: []string{"tab files", "u upload", "D delete", "? help"}, not: []string{"f status", "s file status"}},
		{name: "project read-only", readOnly: true, route: "project", arg: func(s *screen) string { return s.project(t).ID }, wait: "Users",
			want: []string{"tab files", "? help"}, not: []string{"u upload", "D delete"}},
		{name: "project files", route: "project", arg: func(s *screen) string { return s.project(t).ID }, wait: "Users",
			keys: []tea.KeyMsg{{Type: tea.KeyTab}}, want: []string{"tab users", "enter file status", "f status"}},
		{name: "recycle bin", route: "bin", wait: "entries", want: []string{"enter detail", "m client-matter"}},
		{name: "file status", route: "files", arg: func(s *screen) string { return "123e4567-e89b-12d3-a456-426614174000" }, wait: "not found",
			want: []string{"1 ready", "2 processing", "3 stuck", "4 failed", "5 missing", "0 all"}},
		{name: "file IDs prompt", route: "files", wait: "file IDs:",
			want: []string{"enter add the IDs", "esc cancel"}, not: []string{"? help", "q quit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newScreen(t, c.readOnly)
			arg := ""
			if c.arg != nil {
				arg = c.arg(s)
			}
			// wait for the whole footer wanted: a frame read for the view's
			// first text may come before the rows that bring enter
			if len(c.keys) == 0 {
				tm := s.open(t, c.route, arg, 120, 40, append([]string{c.wait}, c.want...)...)
				check(t, lastLine(final(t, tm)), c.want, c.not)
				return
			}
			tm := s.open(t, c.route, arg, 120, 40, c.wait)
			for _, k := range c.keys {
				tm.Send(k)
			}
			waitFor(t, tm, c.want...)
			check(t, lastLine(final(t, tm)), c.want, c.not)
		})
	}
}

func check(t *testing.T, foot string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(foot, w) {
			t.Errorf("footer %q lacks %q", foot, w)
		}
	}
	for _, n := range not {
		if strings.Contains(foot, n) {
			t.Errorf("footer %q offers %q", foot, n)
		}
	}
}

// Every key a view's context line offers is a binding of the session's key
// map: a view cannot make up a key of its own for the footer, and read-only
// leaves none of the mutating ones.
func TestContextKeysComeFromTheKeyMap(t *testing.T) {
	for _, ro := range []bool{false, true} {
		env := pagetest.Env(t, &pagetest.Fake{}, ro)
		for _, r := range routes(Options{}) {
			p := r.New(env, "")
			h, ok := p.(page.KeyHinter)
			if !ok {
				continue
			}
			for _, b := range h.ContextKeys() {
				if !b.Enabled() {
					continue
				}
				for _, k := range b.Keys() {
					if !env.Keys.Binds(k) {
						t.Errorf("%s (read-only %v) offers %q, which the key map does not bind", r.Name, ro, k)
					}
				}
			}
		}
	}
}
