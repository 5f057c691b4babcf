package console

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/creack/pty"
	"github.com/muesli/termenv"
	"golang.org/x/term"

	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestDemoThemeFollowsTheTerminal: the demo builds its theme while it sets
// up (themeInBackground): the auto theme asks the terminal once and takes
// its answer (here a light background), a named theme asks nothing, and
// Run's check finds the answer kept rather than asking again.
func TestDemoThemeFollowsTheTerminal(t *testing.T) {
	for _, c := range []struct {
		theme, want string
		queries     int
	}{{"auto", "light", 1}, {"dark", "dark", 0}, {"high-contrast", "high-contrast", 0}} {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skip("no pseudo-terminal:", err)
		}
		asked := make(chan int, 1)
		go func() { // the terminal: answers each background question, light
			var seen bytes.Buffer
			buf := make([]byte, 256)
			n := 0
			for {
				k, err := ptmx.Read(buf)
				seen.Write(buf[:k])
				for ; n < strings.Count(seen.String(), "\x1b]11;?"); n++ {
					_, _ = ptmx.WriteString("\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[1;1R")
				}
				if err != nil {
					asked <- n
					return
				}
			}
		}()
		// The renderer a terminal of its own would have (this test's
		// process does not own the pseudo-terminal, so termenv would not
		// ask it otherwise), in raw mode as the console's.
		if _, err := term.MakeRaw(int(tty.Fd())); err != nil {
			t.Fatal(err)
		}
		r := lipgloss.NewRenderer(tty, termenv.WithUnsafe(), termenv.WithEnvironment(xterm{}))
		o, theme := themeInBackground(Options{Theme: c.theme, Output: tty, Renderer: r, Getenv: func(string) string { return "" }})
		th := theme()
		if th.Styles == nil || th.Name != c.want {
			t.Errorf("%s: theme %+v, want %s", c.theme, th.Styles, c.want)
		}
		if _, err := prepare(Options{Theme: c.theme, Output: tty, Renderer: o.Renderer, Getenv: o.Getenv, Backend: &pagetest.Fake{}}, tty); err != nil {
			t.Errorf("%s: %v", c.theme, err)
		}
		_ = tty.Close()
		_ = ptmx.Close()
		if n := <-asked; n != c.queries {
			t.Errorf("%s: the terminal was asked %d times, want %d", c.theme, n, c.queries)
		}
	}
}

// xterm is an environment with TERM=xterm-256color and nothing else.
type xterm struct{}

func (xterm) Environ() []string { return []string{"TERM=xterm-256color"} }
func (xterm) Getenv(k string) string {
	if k == "TERM" {
		return "xterm-256color"
	}
	return ""
}
