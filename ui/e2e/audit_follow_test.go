package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// TestAuditFollowSurvivesKill9 is issue 21's promise for a SIEM feed,
// through the built binary: `vaultdeck audit follow --out audit.jsonl`
// against `vaultdeck sim` with a trickle of user entries, killed with
// SIGKILL at random moments (in the middle of a page's write, between a
// write and its fsync, while waiting) and restarted each time, leaves every
// entry the simulator lists in the file exactly once, in the simulator's
// order.
func TestAuditFollowSurvivesKill9(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--audit-entries", "6000", "--audit-trickle", "600")
	home := t.TempDir()
	out := filepath.Join(t.TempDir(), "audit.jsonl")
	env := childEnv(t, nil, "VAULTDECK_HOME="+home, "VAULTDECK_TOKEN="+sp.tokens["admin"])
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	t.Logf("kill moments drawn with seed %d", seed)
	torn := 0
	for round := range 12 {
		cmd := exec.Command(bin, "--base-url", sp.base, "audit", "follow", "--out", out, "--poll", "200ms")
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(200+rng.IntN(2300)) * time.Millisecond) // a random moment, not a wait for a condition
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: follow ended by itself (%v): %s", round, err, stderr.String())
		}
		if data, _ := os.ReadFile(out); len(data) > 0 && data[len(data)-1] != '\n' {
			torn++
		}
	}
	t.Logf("%d of 12 kills left a torn last line", torn)
	// a last run that stops once caught up
	if o, e, code := vd(t, bin, env, "", "--base-url", sp.base, "audit", "follow", "--out", out, "--once"); code != 0 {
		t.Fatalf("follow --once: exit %d: %s %s", code, o, e)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var e struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.ID == "" {
			t.Fatalf("line %d is not an entry: %.200q", i+1, line)
		}
		got = append(got, e.ID)
	}
	full := simLog(t, sp)
	if len(got) < 6000 {
		t.Fatalf("the file holds %d entries; the simulator seeded 6000", len(got))
	}
	if len(got) > len(full) || !slices.Equal(got, full[:len(got)]) {
		for i := range min(len(got), len(full)) {
			if got[i] != full[i] {
				t.Fatalf("entry %d of the file is %s, the simulator's is %s (file %d, simulator %d entries)", i+1, got[i], full[i], len(got), len(full))
			}
		}
		t.Fatalf("the file holds %d entries, the simulator %d", len(got), len(full))
	}
}

// simLog is the simulator's whole log in its order, read as any client
// reads it (earliest, then pages).
func simLog(t *testing.T, sp simProcess) []string {
	t.Helper()
	c, err := api.New(api.Config{BaseURL: sp.base, Token: api.StaticToken(sp.tokens["admin"]), Limits: api.Limits{Audit: -1}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	_, err = c.Audit(api.AuditQuery{}).Each(context.Background(), func(e *api.AuditEntry, _ api.RawItem) error {
		ids = append(ids, e.ID)
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestAuditFollowReopensOnSIGHUP: logrotate moves the file and sends
// SIGHUP; the built binary says so, goes on in a new file at the same path
// (main ends every other command on SIGHUP), and SIGTERM then stops it
// with exit 0. The two files hold the simulator's entries once each, in
// order.
func TestAuditFollowReopensOnSIGHUP(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--audit-entries", "1500", "--audit-trickle", "600")
	out := filepath.Join(t.TempDir(), "audit.jsonl")
	cmd := exec.Command(bin, "--base-url", sp.base, "audit", "follow", "--out", out, "--poll", "200ms")
	cmd.Env = childEnv(t, nil, "VAULTDECK_HOME="+t.TempDir(), "VAULTDECK_TOKEN="+sp.tokens["admin"])
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitLines(t, out, 1500)
	if err := os.Rename(out, out+".1"); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitLines(t, out, 3)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("follow after SIGHUP and SIGTERM: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "reopened the output (SIGHUP)") {
		t.Errorf("stderr: %q", stderr.String())
	}
	var got []string
	for _, p := range []string{out + ".1", out} {
		data, _ := os.ReadFile(p)
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			var e struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatalf("%s: a line that is not an entry: %.200q", filepath.Base(p), line)
			}
			got = append(got, e.ID)
		}
	}
	full := simLog(t, sp)
	if len(got) > len(full) || !slices.Equal(got, full[:len(got)]) {
		t.Fatalf("the rotated and the new file hold %d entries, not the simulator's first ones once each in order", len(got))
	}
}

// waitLines waits (60 s at most: a condition, not a timing) until path
// holds at least n lines.
func waitLines(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(path); err == nil && bytes.Count(data, []byte("\n")) >= n {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s never reached %d lines", path, n)
}
