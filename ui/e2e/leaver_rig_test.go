package e2e

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// leaverRig is the built binary against `sim --leaver --no-rate-limit`,
// crawled once, for the console's access tests: the child's environment (a
// terminal's TERM), a client of the simulator's own, the leaver, and the
// leaver's direct shares as the service lists them now (project name to
// level).
type leaverRig struct {
	bin    string
	env    []string
	c      *api.Client
	leaver string
}

func newLeaverRig(t *testing.T) *leaverRig {
	t.Helper()
	bin := buildBinary(t)
	sp := startSim(t, bin, "--leaver", "--no-rate-limit")
	env := childEnv(t, nil, "VAULTDECK_HOME="+t.TempDir(), "VAULTDECK_TOKEN="+sp.tokens["admin"], "VAULTDECK_BASE_URL="+sp.base, "TERM=xterm-256color")
	c, err := api.New(api.Config{BaseURL: sp.base, Token: api.StaticToken(sp.tokens["admin"]), Limits: api.Limits{Vault: -1, Audit: -1}})
	if err != nil {
		t.Fatal(err)
	}
	r := &leaverRig{bin: bin, env: env, c: c, leaver: leaverOf(t, c)}
	if o, e, code := vd(t, bin, env, "", "access", "crawl"); code != 0 {
		t.Fatalf("crawl: exit %d: %s %s", code, o, e)
	}
	return r
}

// direct is the leaver's direct shares now, by project name.
func (r *leaverRig) direct(t *testing.T) map[string]string {
	t.Helper()
	ps, _, err := r.c.Projects(api.ProjectQuery{}).Collect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range ps {
		ds, err := p.Sharing.Direct()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if strings.EqualFold(d.Email, r.leaver) {
				out[p.Name] = d.AccessLevel
			}
		}
	}
	return out
}

// killAfterLine starts cmd, reads its stderr until a line holding
// prefix, kills it with SIGKILL there and returns what it had said; the
// test fails if it ended by itself before the kill.
func killAfterLine(t *testing.T, cmd *exec.Cmd, prefix string) string {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var seen bytes.Buffer
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		seen.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), prefix) {
			break
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("%s ended by itself before the kill:\n%s", cmd.Args, seen.String())
	}
	return seen.String()
}
