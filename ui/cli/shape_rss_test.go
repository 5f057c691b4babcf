package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

const jqRSSEnv = "VAULTDECK_JQ_RSS_CHILD"

// lineCounter counts the lines written to it and keeps the last one.
type lineCounter struct {
	n    int
	last []byte
}

func (c *lineCounter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' {
			c.n++
			c.last = c.last[:0]
		} else if len(c.last) < 256 {
			c.last = append(c.last, b)
		}
	}
	return len(p), nil
}

// TestJQRSSChild is one side of TestJQStreamsInFlatMemory, run in its own
// process (skipped otherwise): the command alone, its output counted.
func TestJQRSSChild(t *testing.T) {
	expr := os.Getenv(jqRSSEnv)
	if expr == "" {
		t.Skip("run by TestJQStreamsInFlatMemory")
	}
	var out lineCounter
	var errb strings.Builder
	env := Env{Stdout: &out, Stderr: &errb, Limits: api.Limits{Vault: -1},
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": "bench-token-0123", "VAULTDECK_BASE_URL": os.Getenv("JQ_RSS_BASE")}[k]
		}}
	args := append([]string{"recycle-bin", "--jq", expr}, strings.Fields(os.Getenv("JQ_RSS_ARGS"))...)
	code := Main(context.Background(), args, env)
	status, _ := os.ReadFile("/proc/self/status")
	hwm := ""
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			hwm = f[1]
		}
	}
	fmt.Printf("exit=%d lines=%d last=%q stderr=%q hwm=%s\n", code, out.n, out.last, errb.String(), hwm)
}

// TestJQStreamsInFlatMemory: a 100,000-entry bin (64 MB of JSON) through
// --jq '.[] | .vault_project.name' prints every name with a peak RSS under
// 64 MB (the bound), measured in a process of its own (its VmHWM)
// with the server in this one. Beside it, the figures of the same listing counted
// (streamed) and sorted (held whole, --jq-hold raised), for BENCHMARKS.md.
func TestJQStreamsInFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a 100,000-entry bin, twice in a child process")
	}
	const n = 100_000
	body := faultserver.RecycleBinBody(n)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	run := func(expr string, args ...string) (string, float64) {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestJQRSSChild$", "-test.count", "1")
		cmd.Env = append(os.Environ(), jqRSSEnv+"="+expr, "JQ_RSS_BASE="+srv.URL, "JQ_RSS_ARGS="+strings.Join(args, " "))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", expr, err, out)
		}
		// The child's own high-water mark (VmHWM), not getrusage's maxrss:
		// Go starts a child sharing this process's memory until exec, and
		// Linux carries that memory's peak into the child's maxrss.
		var kb float64
		if i := strings.Index(string(out), " hwm="); i < 0 {
			t.Fatalf("%s: no VmHWM: %s", expr, out)
		} else if _, err := fmt.Sscan(string(out[i+5:]), &kb); err != nil {
			t.Fatalf("%s: %v: %s", expr, err, out)
		}
		return string(out), kb / 1024
	}
	out, rss := run(".[] | .vault_project.name")
	if !strings.Contains(out, fmt.Sprintf("exit=0 lines=%d ", n)) {
		t.Fatalf("streamed: %s", out)
	}
	t.Logf("%d MB of JSON; --jq '.[] | .vault_project.name': peak RSS %.1f MiB", len(body)>>20, rss)
	if rss >= 64*1e6/(1<<20) {
		t.Errorf("--jq '.[] | .vault_project.name' on %d entries: peak RSS %.1f MiB, want under 64 MB", n, rss)
	}
	// --filter keeps items as they stream (issue 42): no hold
	out, rss = run(".[] | .resource_id", "--filter", "user7@")
	if !strings.Contains(out, "exit=0 lines=") || strings.Contains(out, "exit=0 lines=0 ") {
		t.Fatalf("filtered: %s", out)
	}
	t.Logf("--filter user7@ --jq '.[] | .resource_id': peak RSS %.1f MiB", rss)
	if rss >= 64*1e6/(1<<20) {
		t.Errorf("--filter on %d entries: peak RSS %.1f MiB, want under 64 MB", n, rss)
	}
	// --sort holds, under --jq-hold's bound
	out, rss = run(".[] | .resource_id", "--sort", "files,desc", "--jq-hold", "1GiB")
	if !strings.Contains(out, fmt.Sprintf("exit=0 lines=%d ", n)) {
		t.Fatalf("sorted: %s", out)
	}
	t.Logf("--sort files,desc (held whole, --jq-hold 1GiB): peak RSS %.1f MiB", rss)
	if out, _ = run(".[] | .resource_id", "--sort", "deleted-at", "--jq-hold", "16MB"); !strings.Contains(out, "exit=1 lines=0 ") || !strings.Contains(out, "--jq-hold") {
		t.Errorf("--sort over the hold: %s", out)
	}
	out, rss = run("map(select(.vault_project.files_count > 10)) | length")
	if !strings.Contains(out, "exit=0 lines=1 ") {
		t.Fatalf("counted: %s", out)
	}
	t.Logf("--jq 'map(select(…)) | length': peak RSS %.1f MiB", rss)
	if rss >= 64*1e6/(1<<20) {
		t.Errorf("a count streams too: peak RSS %.1f MiB", rss)
	}
	out, rss = run("sort_by(.deleted_by_user_email) | .[0].id", "--jq-hold", "1GiB")
	if !strings.Contains(out, "exit=0 lines=1 ") {
		t.Fatalf("held: %s", out)
	}
	t.Logf("--jq 'sort_by(…) | .[0].id' (held whole, --jq-hold 1GiB): peak RSS %.1f MiB", rss)
	out, _ = run("sort_by(.deleted_by_user_email) | .[0].id", "--jq-hold", "16MB")
	if !strings.Contains(out, "exit=1 lines=0 ") || !strings.Contains(out, "--jq-hold") {
		t.Errorf("over the hold: %s", out)
	}
}
