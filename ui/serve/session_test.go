package serve

import (
	"fmt"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// A bound key opens the console of its profile: the projects view of the
// simulator, the key and profile in the header; it moves, filters, quits.
func TestBoundSessionBrowsesFiltersQuits(t *testing.T) {
	f := startServer(t)
	tm := f.open(f.bound, nil)
	tm.waitFor("Acme Corp v. Halvorsen")
	// the endpoint by the console's own rule (the host of a custom base
	// URL, as `vaultdeck --base-url` shows it), then the key as its own chip
	tm.waitFor("vaultdeck  sim  127.0.0.1:")
	tm.waitFor(" key alice@laptop SHA256:")
	tm.waitFor("READ-ONLY")
	tm.waitFor("1/12")
	tm.send("j")
	tm.waitFor("2/12")
	tm.send("jj") // a burst
	tm.waitFor("4/12")
	tm.send("/")
	for _, r := range "Juniper" { // one key at a time
		tm.send(string(r))
	}
	tm.waitFor("1 of 1") // the filtered listing, from the server
	tm.send("\r")        // leave the filter input (esc followed at once by q would read as alt+q)
	tm.send("q")
	if code := tm.exit(); code != 0 {
		t.Fatalf("exit status %d after q", code)
	}
	waitUntil(t, "the session's log line", func() bool { return strings.Contains(f.log.String(), "msg=\"ssh session\"") },
		f.log.String)
	line := f.log.String()
	for _, want := range []string{"profile=sim", "key=SHA256:", "remote=127.0.0.1:", "requests=", "duration="} {
		if !strings.Contains(line, want) {
			t.Errorf("log line lacks %s: %s", want, line)
		}
	}
	if tok := f.sim.Token("admin"); strings.Contains(line, tok) || strings.Contains(tm.out.String(), tok) {
		t.Fatal("the token reached the log or the screen")
	}
}

// Without --allow-writes the key map has no mutating binding: D in a
// project opens nothing and help does not list it; with it, D asks.
func TestMutatingKeysOnlyWithAllowWrites(t *testing.T) {
	for _, allow := range []bool{false, true} {
		f := startServer(t, func(c *Config) { c.AllowWrites = allow })
		tm := f.open(f.bound, nil)
		tm.waitFor("Acme Corp v. Halvorsen")
		tm.send("\r")
		tm.waitFor("Users")
		tm.send("?")
		tm.waitFor("close help") // the footer reads "r refresh" before help opens
		if got := strings.Contains(tm.text(), "delete project"); got != allow {
			t.Errorf("allow-writes=%v: help lists delete project: %v", allow, got)
		}
		tm.send("?") // help closes
		tm.send("D")
		if allow {
			tm.waitFor("Delete project")
			continue
		}
		tm.send(":bin\r") // a sync point: keys are handled in order, so D was
		tm.waitFor("Recycle bin ·")
		if strings.Contains(tm.text(), "Delete project") {
			t.Error("a read-only session opened the delete dialog")
		}
		if !allow && !strings.Contains(tm.text(), "READ-ONLY") {
			t.Error("no read-only badge")
		}
	}
}

// Sessions on one profile share one budget, one cache and one set of
// in-flight requests: five sessions opening the recycle bin within a
// second make one request to the service, and every header shows the one
// shared counter.
func TestFiveSessionsOneRecycleBinRequest(t *testing.T) {
	f := startServer(t)
	terms := make([]*term, 5)
	for i := range terms {
		terms[i] = f.open(f.bound, nil)
	}
	for _, tm := range terms {
		tm.waitFor("Acme Corp v. Halvorsen")
	}
	for _, tm := range terms { // within a second: one burst each, back to back
		tm.send(":bin\r")
	}
	for _, tm := range terms {
		tm.waitFor("Recycle bin · 30 entries")
	}
	if n := f.hits.count(binPath); n != 1 {
		t.Fatalf("the simulator saw %d recycle-bin requests from 5 sessions, want 1", n)
	}
	if n := f.hits.count("/api/v1/vault/workspace/projects"); n != 1 {
		t.Errorf("the simulator saw %d project listings from 5 sessions, want 1", n)
	}
	// two vault requests in all (projects, recycle bin): every session's
	// header shows the shared count once it redraws
	for _, tm := range terms {
		tm.send("j")
		tm.waitFor("vault 8/10")
	}
}

// ctrl+z never suspends the server-side program: the session stays live.
func TestCtrlZDoesNotSuspend(t *testing.T) {
	f := startServer(t)
	tm := f.open(f.bound, nil)
	tm.waitFor("1/12")
	tm.send("\x1a")
	tm.send("j")
	tm.waitFor("2/12")
	tm.send("q")
	if code := tm.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// A session's files would be the server's: no upload (it could send the
// credentials directory to a vault project) and no matter files (Tab
// completion would list the server's file system), even with --allow-writes.
func TestNoServerFilesReachable(t *testing.T) {
	f := startServer(t, func(c *Config) { c.AllowWrites = true })
	tm := f.open(f.bound, nil)
	tm.waitFor("1/12")
	for _, cmd := range []string{"upload", "matters"} {
		tm.send(":" + cmd + "\r")
		tm.waitFor(`there is no command "` + cmd + `"`)
	}
	tm.send("\r") // open the first project, then u (upload) must do nothing
	tm.waitFor("Users")
	tm.send("u")
	tm.send(":bin\r")
	tm.waitFor("Recycle bin ·")
	if strings.Contains(tm.text(), "Upload") {
		t.Fatalf("an upload view opened over SSH:\n%s", tm.text())
	}
}

// Colours follow the session: a 256-colour client gets them, one that sends
// NO_COLOR gets attributes only, whatever the server's own terminal is.
func TestColoursFollowTheSession(t *testing.T) {
	f := startServer(t)
	colour := f.open(f.bound, nil)
	mono := f.open(f.bound, map[string]string{"NO_COLOR": "1"})
	for _, tm := range []*term{colour, mono} {
		tm.waitFor("1/12")
	}
	if !strings.Contains(colour.out.String(), "38;5;") {
		t.Error("no 256-colour sequences for an xterm-256color session")
	}
	if out := mono.out.String(); strings.Contains(out, "38;5;") || strings.Contains(out, "48;5;") {
		t.Error("colours for a NO_COLOR session")
	}
	if !strings.Contains(mono.out.String(), "\x1b[7m") {
		t.Error("the NO_COLOR session lost reverse video for the selected row")
	}
}

// Every window change reaches the program, growing as well as shrinking,
// and two sessions on one connection (ssh's ControlMaster) each follow
// their own window. The renderer ends each frame on its last line, so the
// cursor's row after a change tells the height the program drew for.
func TestWindowChangesReachTheProgram(t *testing.T) {
	f := startServer(t)
	c, err := f.dial(gossh.PublicKeys(f.bound))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a, b := openPty(t, c, nil), openPty(t, c, nil)
	a.waitFor("1/12")
	b.waitFor("1/12")
	drawnFor := func(tm *term, rows int, from int) int {
		t.Helper()
		mark := fmt.Sprintf("\x1b[%d;H", rows)
		var at int
		waitUntil(t, fmt.Sprintf("a frame %d rows high", rows), func() bool {
			at = strings.Index(tm.out.String()[from:], mark)
			return at >= 0
		}, func() string { return fmt.Sprintf("%q", tm.out.String()[from:]) })
		return from + at + len(mark)
	}
	pos := len(a.out.String())
	for _, rows := range []int{24, 40, 24, 40} {
		if err := a.sess.WindowChange(rows, rows*3); err != nil {
			t.Fatal(err)
		}
		pos = drawnFor(a, rows, pos)
	}
	if strings.Contains(b.out.String(), "\x1b[24;H") {
		t.Fatal("the other session on the connection was resized too")
	}
}
