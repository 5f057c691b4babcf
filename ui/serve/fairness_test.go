package serve

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// `ssh -tt` fed from a pipe asks for a pty but has no terminal behind it:
// OpenSSH sends a 0x0 window. The session is told why and closed at once,
// not left holding a slot until the idle timeout (issue 45: 53 bytes, then
// 30 minutes).
func TestPipeFedSessionClosedAtOnce(t *testing.T) {
	f := startServer(t)
	k := newKeyFile(t)
	f.writeKeys(t, k.line+" piped@host\n")
	f.srv.keys = mustParse(t, k.line+" piped@host\n")
	cmd := f.openssh(t, k.path, "-tt")
	cmd.Stdin = strings.NewReader("") // a pipe, not a terminal
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("the pipe-fed session was still open after 5 s; it printed %q", out.String())
	}
	took := time.Since(start)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1", err)
	}
	if !strings.Contains(out.String(), "no terminal") {
		t.Errorf("the client was not told why: %q", out.String())
	}
	if took > time.Second {
		t.Errorf("the pipe-fed session took %s to end, want under 1 s", took)
	}
	if n := f.srv.Sessions(); n != 0 {
		t.Errorf("%d sessions still counted", n)
	}
}

func mustParse(t testing.TB, body string) *Keys {
	t.Helper()
	ks := ParseKeys([]byte(body))
	if len(ks.List) == 0 {
		t.Fatalf("no key in %q: %v", body, ks.Problems)
	}
	return ks
}

// One key cannot take every slot: with --max-sessions 4, key A's third
// and fourth sessions are refused (the per-key limit defaults to half),
// and key B still gets in.
func TestOneKeyLeavesRoomForOthers(t *testing.T) {
	f := startServer(t, func(c *Config) { c.MaxSessions = 4 })
	var open []*term
	for range 2 {
		tm := f.open(f.bound, nil)
		tm.waitFor("1/12")
		open = append(open, tm)
	}
	for range 2 {
		tm := f.open(f.bound, nil)
		if code := tm.exit(); code != 1 {
			t.Fatalf("key A's session over its share exited %d", code)
		}
		if !strings.Contains(tm.text(), "this key already has 2 sessions") {
			t.Fatalf("refused session saw %q", tm.text())
		}
	}
	b := f.open(f.unbound, nil)
	b.waitFor("API token:")
	open[0].send("j")
	open[0].waitFor("2/12")
}

// rss is this process's resident set (the server runs in it), in bytes.
func rss(t testing.TB) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status here")
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// A 1 MB paste into the token prompt, bracketed as terminals send pastes
// and then bare as a script would type it: each is refused with a line, the
// server's memory stays within 10 MB of before (issue 45: 41 -> 307 MB),
// and the prompt still works.
func TestHugePasteIntoTokenPromptRefused(t *testing.T) {
	f := startServer(t)
	tm := f.open(f.unbound, nil)
	tm.waitFor("API token:")
	runtime.GC()
	before := rss(t)
	big := strings.Repeat("x", 1<<20)
	tm.send("\x1b[200~" + big + "\x1b[201~")
	tm.waitFor("was refused")
	tm.send("\r") // the refusal holds until enter
	tm.send(big)
	waitUntil(t, "the second refusal", func() bool { return f.refusedInputs() == 2 }, tm.text)
	after := rss(t)
	if grew := after - before; grew > 10<<20 {
		t.Errorf("the server's memory grew by %d MB (%d -> %d MB)", grew>>20, before>>20, after>>20)
	}
	t.Logf("RSS %d -> %d MB", before>>20, after>>20)
	tm.send("\r" + f.sim.Token("admin") + "\r")
	tm.waitFor("Acme Corp v. Halvorsen")
}

// refusedInputs sums the open sessions' refused runs of input.
func (f *fixture) refusedInputs() int64 {
	f.srv.mu.Lock()
	defer f.srv.mu.Unlock()
	var n int64
	for _, ss := range f.srv.sessions {
		n += ss.refused.Load()
	}
	return n
}

// After the prompt, the console's own prompts (the filter, a typed
// confirmation) are bounded too: a 1 MB bracketed paste into the filter
// of a bound key's console is cut at PromptInputLimit bytes and counted as
// refused, the server's memory stays within 10 MB of before, and the
// console goes on.
func TestHugePasteIntoConsoleRefused(t *testing.T) {
	f := startServer(t)
	tm := f.open(f.bound, nil)
	tm.waitFor("Acme Corp v. Halvorsen")
	tm.send("/")
	runtime.GC()
	before := rss(t)
	tm.send("\x1b[200~" + strings.Repeat("x", 1<<20) + "\x1b[201~")
	waitUntil(t, "the paste's refusal", func() bool { return f.refusedInputs() == 1 }, tm.text)
	after := rss(t)
	if grew := after - before; grew > 10<<20 {
		t.Errorf("the server's memory grew by %d MB (%d -> %d MB)", grew>>20, before>>20, after>>20)
	}
	t.Logf("RSS %d -> %d MB", before>>20, after>>20)
	tm.send("\x1b")
	tm.send("q")
}
