package clipboard

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// TestChooseRoute: inside tmux the plain sequence is used whenever tmux
// accepts it, the passthrough wrapper only when tmux allows passthrough.
func TestChooseRoute(t *testing.T) {
	tmux := envOf("TMUX", "/tmp/tmux-0/default,1,0")
	cases := []struct {
		name string
		env  func(string) string
		set  TmuxSettings
		want Route
	}{
		{"terminal", envOf(), TmuxSettings{}, Direct},
		{"tmux set-clipboard on", tmux, TmuxSettings{"on", "0"}, TmuxPlain},
		{"tmux on and passthrough", tmux, TmuxSettings{"on", "1"}, TmuxPlain},
		{"tmux default (external, no passthrough)", tmux, TmuxSettings{"external", "0"}, TmuxRefuses},
		{"tmux passthrough only", tmux, TmuxSettings{"external", "1"}, TmuxWrapped},
		{"tmux passthrough all", tmux, TmuxSettings{"off", "all"}, TmuxWrapped},
		{"tmux unreadable", tmux, TmuxSettings{}, TmuxRefuses},
		{"screen", envOf("STY", "1.pts", "TERM", "screen-256color"), TmuxSettings{}, Screen},
	}
	for _, c := range cases {
		if got := Choose(c.env, c.set); got != c.want {
			t.Errorf("%s: route %d, want %d", c.name, got, c.want)
		}
	}
	if s := Sequence("abc", TmuxPlain); !strings.HasPrefix(s, "\x1b]52;c;") {
		t.Errorf("plain route sends %q", s)
	}
	if s := Sequence("abc", TmuxWrapped); !strings.HasPrefix(s, "\x1bPtmux;") {
		t.Errorf("wrapped route sends %q", s)
	}
	for _, r := range []Route{Direct, TmuxPlain, TmuxWrapped, TmuxRefuses, Screen} {
		if rep := Report("x", r); strings.Contains(rep, "copied") {
			t.Errorf("route %d claims a copy: %q", r, rep)
		}
	}
}

// TestNothingSelectedSaysSo: y pressed before a list has rows (the demo's
// first frame comes before its data now) did nothing at all, and a person
// could not tell a lost key from a copy that failed.
func TestNothingSelectedSaysSo(t *testing.T) {
	cmd := Copy(context.Background(), io.Discard, func(string) string { return "" }, nil)
	if cmd == nil {
		t.Fatal("y with no row selected: nothing happens and nothing is said")
	}
	if msg, ok := cmd().(page.StatusMsg); !ok || !strings.Contains(msg.Text, "nothing selected") {
		t.Errorf("y with no row selected says %+v", msg)
	}
}
