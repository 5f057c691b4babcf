package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

const (
	bgQuery  = "\x1b]11;?"                                      // OSC 11: what is your background colour?
	bgAnswer = "\x1b]11;rgb:0000/0000/0000\x1b\\" + "\x1b[1;1R" // a dark background, then the cursor report termenv also asks for
)

// ptyRun is a program on a pseudo-terminal that answers background queries
// the way a terminal does, and records everything the program wrote.
type ptyRun struct {
	t    testing.TB
	cmd  *exec.Cmd
	f    *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

func startPty(t testing.TB, bin string, env []string, args ...string) *ptyRun {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = childEnv(t, []string{"TMUX", "TERM", "NO_COLOR", "COLORFGBG", "CI"}, append([]string{"TERM=xterm-256color"}, env...)...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{t: t, cmd: cmd, f: f, done: make(chan struct{})}
	go r.read()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = f.Close() })
	return r
}

func (r *ptyRun) read() {
	defer close(r.done)
	buf := make([]byte, 4096)
	answered := 0
	for {
		n, err := r.f.Read(buf)
		r.mu.Lock()
		r.out.Write(buf[:n])
		asked := strings.Count(r.out.String(), bgQuery)
		r.mu.Unlock()
		for ; answered < asked; answered++ {
			_, _ = r.f.WriteString(bgAnswer)
		}
		if err != nil {
			return
		}
	}
}

func (r *ptyRun) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// waitFor polls the output for text with a generous deadline; nothing
// asserts on how long it took.
func (r *ptyRun) waitFor(text string) {
	r.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(r.output(), text) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.t.Fatalf("timed out waiting for %q; output %q", text, r.output())
}

// wait waits for the program to end and returns its output.
func (r *ptyRun) wait() string {
	r.t.Helper()
	_ = r.cmd.Wait()
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
	}
	return r.output()
}

// TestTerminalQueries: a headless command on a terminal asks it nothing
// (it used to pay one background query, 5 s on a silent terminal); the
// console asks once for the auto theme (it used to ask twice), and not at
// all with a theme that needs no answer.
func TestTerminalQueries(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	env := []string{"VAULTDECK_HOME=" + t.TempDir(), "VAULTDECK_TOKEN=x", "VAULTDECK_BASE_URL=http://127.0.0.1:9"}

	for _, args := range [][]string{{"version"}, {"whoami"}, {"projects"}} {
		out := startPty(t, bin, env, args...).wait()
		if n := strings.Count(out, bgQuery); n != 0 {
			t.Errorf("%v asked the terminal %d times: %q", args, n, out)
		}
	}

	for _, c := range []struct {
		args    []string
		queries int
	}{{[]string{"demo"}, 1}, {[]string{"demo", "--theme", "dark"}, 0}, {[]string{"demo", "--no-color"}, 0}} {
		r := startPty(t, bin, env, c.args...)
		r.waitFor("Acme Corp") // the first frame with data
		_, _ = r.f.WriteString("q")
		out := r.wait()
		if n := strings.Count(out, bgQuery); n != c.queries {
			t.Errorf("%v asked the terminal %d times, want %d", c.args, n, c.queries)
		}
	}
}
