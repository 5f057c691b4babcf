package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestMainWaitsForSignalsBeforeTheCommand: main registers the process's
// signals (SIGINT, SIGTERM, SIGHUP, SIGPIPE) while the command line is
// read, and Main waits for that (Env.Signals) before any command runs or
// writes: the demo, a command's output, help.
func TestMainWaitsForSignalsBeforeTheCommand(t *testing.T) {
	for _, args := range [][]string{{"demo"}, {"version"}, {"--help"}, {"no-such-command"}} {
		var order []string
		var out, errb bytes.Buffer
		env := Env{
			Stdout: &out, Stderr: &errb,
			Signals: func() { order = append(order, "signals") },
			Demo: func(context.Context, Globals, DemoFlags) int {
				order = append(order, "demo")
				return ExitOK
			},
		}
		Main(context.Background(), args, env)
		if len(order) == 0 || order[0] != "signals" || strings.Count(strings.Join(order, " "), "signals") != 1 {
			t.Errorf("%v: %v, want signals once, first", args, order)
		}
	}
}

// TestTheDemoCommandLineBuildsCheaply: the words `vaultdeck demo` build
// the root and the demo command only (root_lazy.go), on the console's way
// to its first frame: every allocation there is paid before it. The list
// of views --open accepts is made once (it was made three times, a third
// of the 670 allocations).
func TestTheDemoCommandLineBuildsCheaply(t *testing.T) {
	const most = 500
	if n := testing.AllocsPerRun(10, func() { newTree(Env{}).newRootFor([]string{"demo"}) }); n > most {
		t.Errorf("building the demo's command line took %.0f allocations, want at most %d", n, most)
	}
}
