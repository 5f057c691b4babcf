// Package e2e drives the real vaultdeck binary in tmux, the way a person does:
// keys go in with send-keys and the screen comes back with capture-pane.
package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmuxSession is one detached tmux server (private socket) running one pane.
type tmuxSession struct {
	t      *testing.T
	socket string
}

// requireTmux skips when tmux is missing on a developer machine, but fails in
// CI, where .ci/run installs it: a skipped end-to-end test must not pass CI.
func requireTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed; .ci/run installs it")
		}
		t.Skip("tmux not installed")
	}
}

func startTmux(t *testing.T, env []string, command ...string) *tmuxSession {
	t.Helper()
	return startTmuxSized(t, "150", "45", env, command...)
}

// startTmuxSized starts a tmux server of the test's own (its socket in the
// test's temporary directory, so parallel tests never meet) running
// command in a w x h pane, in the test's private environment (childEnv).
func startTmuxSized(t *testing.T, w, h string, env []string, command ...string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	args := []string{"new-session", "-d", "-x", w, "-y", h, "--"}
	// The program runs as a person runs it: not under CI=true, which
	// termenv takes to mean "no terminal" (no attributes, no queries) and
	// which CI sets for this whole test process.
	args = append(args, envCommand(t, []string{"CI"}, env...)...)
	args = append(args, command...)
	s.run(args...)
	// keep the pane after the program exits so the test can see how it ended
	s.run("set-option", "-g", "remain-on-exit", "on")
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxSession) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	s.run(append([]string{"send-keys", "-t", "0"}, keys...)...)
}

// literal types text as-is (no key-name interpretation).
func (s *tmuxSession) literal(text string) {
	s.t.Helper()
	s.run("send-keys", "-t", "0", "-l", text)
}

func (s *tmuxSession) screen() string {
	s.t.Helper()
	return s.run("capture-pane", "-p", "-t", "0")
}

// joined is the whole pane, scrollback included, with lines the terminal
// wrapped joined again: what a program wrote, line by line, whatever the
// pane's width was when it wrote it.
func (s *tmuxSession) joined() string {
	s.t.Helper()
	return s.run("capture-pane", "-p", "-J", "-S", "-", "-t", "0")
}

// waitFor polls the screen until ok accepts it. This waits for a condition
// with a generous deadline; nothing asserts on how long it took.
func (s *tmuxSession) waitFor(what string, ok func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		last = s.screen()
		if ok(last) {
			return last
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("timed out waiting for %s; screen:\n%s", what, last)
	return ""
}

func (s *tmuxSession) waitForText(text string) string {
	s.t.Helper()
	return s.waitFor(strings.TrimSpace(text), func(sc string) bool { return strings.Contains(sc, text) })
}

// paneDead reports whether the program in the pane has exited, and its status.
func (s *tmuxSession) paneDead() (bool, string) {
	out := strings.TrimSpace(s.run("display-message", "-p", "-t", "0", "#{pane_dead} #{pane_dead_status}"))
	dead, status, _ := strings.Cut(out, " ")
	return dead == "1", status
}

// simConsole is the built binary's console on a `vaultdeck sim` of its
// own, in a w x h tmux pane, the projects on screen: bin and env run the
// same binary headless against the same simulator.
type simConsole struct {
	bin string
	sim simProcess
	env []string
	s   *tmuxSession
}

func startSimConsole(t *testing.T, w, h string) simConsole {
	t.Helper()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	c := simConsole{bin: buildBinary(t)}
	c.sim = startSim(t, c.bin)
	c.env = []string{"VAULTDECK_BASE_URL=" + c.sim.base, "VAULTDECK_TOKEN=" + c.sim.tokens["admin"], "TERM=xterm-256color"}
	c.s = startTmuxSized(t, w, h, c.env, "sh", "-c", c.bin+`; echo "EXITED $?"; sleep 600`)
	c.s.waitForText("Projects")
	return c
}
