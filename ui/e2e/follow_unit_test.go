package e2e

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// followUnit is the packaged follow unit's ExecStart and Environment= for
// instance "siem", read from .ci/release/units as systemd reads them (%i,
// %%), with the binary, the state directory and the log directory put
// where a test may write.
type followUnit struct {
	args []string // after the binary
	env  []string
	out  string
}

func packagedFollowUnit(t *testing.T, home, logs string) followUnit {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), ".ci", "release", "units", "vaultdeck-follow@.service"))
	if err != nil {
		t.Fatal(err)
	}
	var u followUnit
	expand := func(s string) string {
		s = strings.ReplaceAll(s, "%%", "\x00")
		s = strings.ReplaceAll(s, "%i", "siem")
		s = strings.ReplaceAll(s, "/var/lib/vaultdeck", home)
		s = strings.ReplaceAll(s, "/var/log/vaultdeck", logs)
		return strings.ReplaceAll(s, "\x00", "%")
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		switch {
		case !ok:
		case k == "ExecStart":
			f := strings.Fields(expand(v))
			if len(f) < 2 || f[0] != "/usr/bin/vaultdeck" {
				t.Fatalf("ExecStart is not the packaged binary: %q", v)
			}
			u.args = f[1:]
		case k == "Environment":
			u.env = append(u.env, expand(v))
		}
	}
	if u.args == nil {
		t.Fatal("the unit has no ExecStart")
	}
	u.out = filepath.Join(logs, "siem.jsonl")
	return u
}

// followAsTheUnit sets up what the unit's comment tells the admin to do:
// the profile logged in once, its token file then deleted, the token in
// the unit's credential. It returns the environment the unit's command
// runs in (CREDENTIALS_DIRECTORY as LoadCredential= makes it).
func followAsTheUnit(t *testing.T, bin string, sp simProcess) (followUnit, []string) {
	t.Helper()
	home, logs, creds := t.TempDir(), t.TempDir(), t.TempDir()
	u := packagedFollowUnit(t, home, logs)
	base := append([]string{"VAULTDECK_HOME=" + home}, u.env...)
	if o, e, code := vd(t, bin, base, sp.tokens["admin"], "login", "--profile", "siem", "--base-url", sp.base, "--insecure-storage"); code != 0 {
		t.Fatalf("login: exit %d %s %s", code, o, e)
	}
	files, _ := filepath.Glob(filepath.Join(home, "tokens", "*.token"))
	for _, f := range files {
		os.Remove(f) // the credential is the token now
	}
	if len(files) == 0 {
		t.Fatal("login left no token file to delete: the test no longer proves the credential is read")
	}
	if err := os.WriteFile(filepath.Join(creds, "siem"), []byte(sp.tokens["admin"]+"\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	return u, append(base, "CREDENTIALS_DIRECTORY="+creds)
}

// TestThePackagedFollowUnitExitsFourWhenItsTokenIsRevoked is issue 41's
// "done when": the follow unit's own ExecStart, its token in a
// CREDENTIALS_DIRECTORY and no token file, follows the simulator; the
// token is revoked and the follow exits 4 within its bound (a short
// --auth-grace added to the unit's line), one line saying so; then the
// same line with --check, and no token at all, reports the lag: exit 3
// past a small --max-lag, 0 within a large one.
func TestThePackagedFollowUnitExitsFourWhenItsTokenIsRevoked(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--control", "--no-rate-limit", "--audit-entries", "300", "--audit-trickle", "600")
	u, env := followAsTheUnit(t, bin, sp)
	const grace = 3 * time.Second
	cmd := exec.Command(bin, append(u.args, "--auth-grace", grace.String(), "--poll", "200ms")...)
	cmd.Env = childEnv(t, nil, env...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	check := func(maxLag string) (string, int) {
		o, _, code := vd(t, bin, env[:len(env)-1], "", append(u.args, "--check", "--max-lag", maxLag)...) // no credential: the probe needs no token
		return o, code
	}
	// caught up: the probe says OK (waited for, with a deadline)
	for start := time.Now(); ; {
		if o, code := check("15m"); code == 0 && strings.HasPrefix(o, "FOLLOW OK - ") {
			break
		} else if time.Since(start) > 60*time.Second {
			t.Fatalf("the follow never reported OK: exit %d %q; stderr:\n%s", code, o, stderr.String())
		}
		time.Sleep(100 * time.Millisecond) // a poll of a condition, not a wait for it to hold
	}
	simControl(t, sp, "revoke", `{"token":"admin"}`)
	revoked := time.Now()
	code := waitExit(t, cmd, grace+30*time.Second)
	took := time.Since(revoked)
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if code != 4 || !strings.Contains(lines[len(lines)-1], "refused for") {
		t.Fatalf("revoked: exit %d after %s, want 4 with the last line saying so; stderr:\n%s", code, took, stderr.String())
	}
	if took < grace || took > grace+15*time.Second {
		t.Errorf("exit 4 came %s after the revocation, want at the bound (%s)", took, grace)
	}
	t.Logf("exit 4 %s after the revocation (--auth-grace %s): %s", took.Round(time.Millisecond), grace, lines[len(lines)-1])
	o, code := check("1s")
	if code != 3 || !strings.HasPrefix(o, "FOLLOW WARNING - ") || !strings.Contains(o, "the token refused") || !strings.Contains(o, "| lag=") {
		t.Errorf("--check --max-lag 1s after the exit: exit %d %q", code, o)
	}
	if o, code := check("15m"); code != 0 || !strings.HasPrefix(o, "FOLLOW OK - ") {
		t.Errorf("--check --max-lag 15m after the exit: exit %d %q", code, o)
	}
	if data, err := os.ReadFile(u.out); err != nil || bytes.Count(data, []byte("\n")) < 300 {
		t.Errorf("the unit's output file: %d lines, %v", bytes.Count(data, []byte("\n")), err)
	}
}

// TestFollowNotifiesSystemd: under $NOTIFY_SOCKET (a unixgram socket this
// test listens on, as systemd's) the follow sends READY=1 once its first
// read was answered, then WATCHDOG=1 as its reads are answered, and none
// while its token is refused (at most one for a read answered as the
// token was revoked).
func TestFollowNotifiesSystemd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--control", "--no-rate-limit", "--audit-entries", "100", "--audit-trickle", "600")
	dir, err := os.MkdirTemp("", "vdn") // a socket path must be short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	msgs := make(chan string, 4096)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, _, err := conn.ReadFromUnix(buf)
			if err != nil {
				close(msgs)
				return
			}
			msgs <- string(buf[:n])
		}
	}()
	u, env := followAsTheUnit(t, bin, sp)
	cmd := exec.Command(bin, append(u.args, "--auth-grace", "3s", "--poll", "200ms", "--metrics", "127.0.0.1:0")...)
	cmd.Env = childEnv(t, nil, append(env, "NOTIFY_SOCKET="+sock)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	next := func() string {
		select {
		case m := <-msgs:
			return m
		case <-time.After(60 * time.Second):
			t.Fatalf("nothing on NOTIFY_SOCKET for 60 s; stderr:\n%s", stderr.String())
			return ""
		}
	}
	if m := next(); m != "READY=1" {
		t.Fatalf("first message %q, want READY=1", m)
	}
	for range 3 {
		if m := next(); m != "WATCHDOG=1" {
			t.Fatalf("then %q, want WATCHDOG=1", m)
		}
	}
	// its metrics, on the loopback address it says
	scrape := metricsOf(t, stderr)
	for _, want := range []string{"vaultdeck_follow_lag_seconds ", "vaultdeck_follow_entries_written_total ", "vaultdeck_follow_consecutive_failures 0\n",
		"vaultdeck_follow_last_success_timestamp_seconds ", "vaultdeck_budget_waits_total "} {
		if !strings.Contains(scrape, want) {
			t.Errorf("the metrics lack %q:\n%s", want, scrape)
		}
	}
	simControl(t, sp, "revoke", `{"token":"admin"}`)
	for len(msgs) > 0 {
		<-msgs // sent before the revocation
	}
	if code := waitExit(t, cmd, 40*time.Second); code != 4 {
		t.Fatalf("exit %d, want 4; stderr:\n%s", code, stderr.String())
	}
	var after []string
	for len(msgs) > 0 {
		after = append(after, <-msgs)
	}
	if len(after) > 1 || (len(after) == 1 && after[0] != "WATCHDOG=1") {
		t.Errorf("while the token was refused the follow sent %q, want nothing (one WATCHDOG=1 at most, for a read answered as it was revoked)", after)
	}
}

// syncBuffer is a bytes.Buffer written by a child's stderr and read by
// the test meanwhile.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}
func (b *syncBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.buf.String() }

// metricsOf scrapes the endpoint the follow named on stderr ("metrics on
// http://ADDR/metrics").
func metricsOf(t *testing.T, stderr *syncBuffer) string {
	t.Helper()
	var url string
	for start := time.Now(); url == ""; {
		for _, line := range strings.Split(stderr.String(), "\n") {
			if _, u, ok := strings.Cut(line, "metrics on "); ok {
				url = strings.TrimSpace(u)
			}
		}
		if url == "" && time.Since(start) > 30*time.Second {
			t.Fatalf("the follow named no metrics address; stderr:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond) // a poll of stderr, not a wait for time to pass
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
