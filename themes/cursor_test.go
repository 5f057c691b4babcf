package themes

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"
)

// env is a fixed environment for a renderer that believes it writes to a
// terminal, as the console's does.
type env map[string]string

func (e env) Getenv(k string) string { return e[k] }
func (e env) Environ() []string {
	var out []string
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	return out
}

// ttyRenderer is a renderer on a terminal with this environment; its colour
// profile is detected from the environment like a real program's.
func ttyRenderer(e env) *lipgloss.Renderer {
	return lipgloss.NewRenderer(io.Discard, termenv.WithTTY(true), termenv.WithEnvironment(e))
}

// TestCursorRowDistinguishable renders a cursor row next to a plain row in
// every theme, and in the NO_COLOR and CLICOLOR=0 environments, on a
// renderer that detects its profile from the environment. The cursor row
// must differ from a plain row (reverse video where there is no colour),
// and the urgent style must carry an attribute. The golden files show what
// each theme emits.
func TestCursorRowDistinguishable(t *testing.T) {
	cases := []struct {
		name  string
		theme string
		env   env
		flag  bool // --no-color
	}{
		{"NO_COLOR", "auto", env{"TERM": "xterm-256color", "NO_COLOR": "1"}, false},
		{"CLICOLOR=0", "dark", env{"TERM": "xterm-256color", "CLICOLOR": "0"}, false},
		{"no-color-flag", "dark", env{"TERM": "xterm-256color"}, true},
	}
	for _, n := range Names() {
		cases = append(cases, struct {
			name  string
			theme string
			env   env
			flag  bool
		}{n, n, env{"TERM": "xterm-256color", "COLORFGBG": "15;0"}, false})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ttyRenderer(c.env)
			// as the console decides: the flag, or the environment
			th, err := New(r, c.theme, c.flag || NoColorFromEnv(c.env.Getenv))
			if err != nil {
				t.Fatal(err)
			}
			row, sel := th.Row.Render("Acme v. Globex"), th.SelectedRow.Render("Acme v. Globex")
			if row == sel {
				t.Errorf("%s: the cursor row looks like any other row: %q", c.name, sel)
			}
			alarm := th.Alarm.Render("purge in 3h")
			if !strings.Contains(alarm, "\x1b[") {
				t.Errorf("%s: the urgent style carries no attribute: %q", c.name, alarm)
			}
			golden.RequireEqual(t, []byte(fmt.Sprintf("theme %s\nrow   %q\ncursor %q\nalarm %q\n", th.Name, row, sel, alarm)))
		})
	}
}
