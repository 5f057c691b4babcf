package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkAuditSync is issue 21's item 6: reading a simulator's whole
// audit log, in one run, three ways, each in a process of its own whose
// peak RSS the kernel reports:
//
//   - sync: the audit job copying the log into the local mirror (SQLite),
//     as `vaultdeck audit sync` does;
//   - follow: the audit job writing JSON Lines to a file, fsynced page by
//     page, as `vaultdeck audit follow --once --no-mirror --out FILE` does
//     (without --no-mirror it writes the mirror too, at sync's speed);
//   - curl: testdata/audit_curl_loop.sh, curl and jq writing the same
//     JSON Lines (the baseline).
//
// The simulator holds 20,000 entries (the count .ci/bench/goals compares),
// so that the single CI pass takes seconds: at 50,000 the curl side alone
// took 57 s on a loaded machine, after every test of the package, which
// runs its benchmarks last; VAULTDECK_BENCH_AUDIT_ENTRIES=1000000 gives the figure
// (BENCHMARKS.md). Metrics: entries/s, peak-RSS-MB and requests of each.
func BenchmarkAuditSync(b *testing.B) {
	if testing.Short() {
		b.Skip("end-to-end: builds the binary")
	}
	for _, tool := range []string{"curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				b.Fatalf("%s is not installed; .ci/run installs it", tool)
			}
			b.Skipf("%s not installed", tool)
		}
	}
	n := 20_000
	if v := os.Getenv("VAULTDECK_BENCH_AUDIT_ENTRIES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("VAULTDECK_BENCH_AUDIT_ENTRIES=%q is not a positive count", v)
		}
	}
	bin := buildBinary(b)
	helper := filepath.Join(b.TempDir(), "auditsync")
	if out, err := exec.Command("go", "build", "-o", helper, "github.com/vaultdeck/vaultdeck/ui/e2e/testdata/auditsync").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	sp := startSim(b, bin, "--no-rate-limit", "--audit-entries", strconv.Itoa(n))
	dir := b.TempDir()
	header := filepath.Join(dir, "auth-header")
	if err := os.WriteFile(header, []byte("Authorization: Bearer "+sp.tokens["admin"]+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	script, _ := filepath.Abs("testdata/audit_curl_loop.sh")
	sides := []struct {
		name string
		cmd  func(out string) *exec.Cmd
	}{
		{"sync", func(out string) *exec.Cmd { return exec.Command(helper, "sync", sp.base, out+".db") }},
		{"follow", func(out string) *exec.Cmd { return exec.Command(helper, "follow", sp.base, out) }},
		{"curl", func(out string) *exec.Cmd { return exec.Command("bash", script, sp.base, header, out) }},
	}
	for _, side := range sides {
		b.Run(side.name, func(b *testing.B) {
			var rate, rss, requests float64
			for i := range b.N {
				out := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", side.name, i))
				cmd := side.cmd(out)
				cmd.Env = childEnv(b, nil, "VAULTDECK_TOKEN="+sp.tokens["admin"])
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				start := time.Now()
				if err := cmd.Run(); err != nil {
					b.Fatalf("%s: %v\n%s", side.name, err, stderr.String())
				}
				took := time.Since(start)
				entries, reqs := parseCounts(b, side.name, stdout.String(), out)
				if entries < n {
					b.Fatalf("%s read %d entries of %d", side.name, entries, n)
				}
				rate = float64(entries) / took.Seconds()
				requests = float64(reqs)
				// ru_maxrss of the process and every descendant it waited for
				// (the script's curl and jq): the largest of them, in KiB
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					rss = float64(ru.Maxrss) / 1024
				}
			}
			b.ReportMetric(rate, "entries/s")
			b.ReportMetric(rss, "peak-RSS-MB")
			b.ReportMetric(requests, "requests")
		})
	}
}

// parseCounts reads "requests N entries M" (the helper) or "N" (the script,
// whose entries are the lines it wrote).
func parseCounts(b *testing.B, side, stdout, out string) (entries, requests int) {
	f := strings.Fields(stdout)
	switch {
	case len(f) == 4 && f[0] == "requests":
		requests, _ = strconv.Atoi(f[1])
		entries, _ = strconv.Atoi(f[3])
	case len(f) == 1:
		requests, _ = strconv.Atoi(f[0])
		data, err := os.ReadFile(out)
		if err != nil {
			b.Fatal(err)
		}
		entries = bytes.Count(data, []byte("\n"))
	default:
		b.Fatalf("%s printed %q", side, stdout)
	}
	return entries, requests
}
