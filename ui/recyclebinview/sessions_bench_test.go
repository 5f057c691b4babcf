package recyclebinview

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const sessionsChildEnv = "VAULTDECK_SESSIONS_CHILD"

// TestServeSessionsChild is one process of BenchmarkServeSessions (skipped
// otherwise): it opens N sessions ("N mode") on the simulator at
// SESSIONS_BASE and prints the live heap they hold.
func TestServeSessionsChild(t *testing.T) {
	spec := os.Getenv(sessionsChildEnv)
	if spec == "" {
		t.Skip("run by BenchmarkServeSessions")
	}
	var n int
	var mode string
	if _, err := fmt.Sscan(spec, &n, &mode); err != nil {
		t.Fatalf("%s=%q: %v", sessionsChildEnv, spec, err)
	}
	var c sessionsCase
	for _, sc := range sessionsCases {
		if strings.ReplaceAll(sc.name, " ", "-") == mode {
			c = sc
		}
	}
	size, _ := strconv.Atoi(os.Getenv("SESSIONS_SIZE"))
	b := &binSessions{tb: t, token: os.Getenv("SESSIONS_TOKEN"), size: size, url: os.Getenv("SESSIONS_BASE")}
	fmt.Printf("live-heap %d\n", b.heap(n, c))
}

// BenchmarkServeSessions is issue 32's serve figure: N sessions on one
// token (serve's: one Share, one client each) each open the whole recycle
// bin, one after another, in a process of their own per N, against one
// simulator run in the benchmark's process (its memory is not counted).
// For N of 1, 10 and 16 it reports the live heap the sessions hold after
// a collection and the process's peak RSS, and N against 1 (goal: 16
// sessions at most twice one). Sessions open apart (each fetches and
// decodes its own answer) and together (one request). 5,000 entries keep
// CI's one pass to seconds; VAULTDECK_SESSIONS_BIN=100000 gives the
// issue's figure, VAULTDECK_SESSIONS_N another list of N ("1,10,16").
func BenchmarkServeSessions(b *testing.B) {
	size := sessionsSize(b, 5_000)
	ns := []int{1, 10, 16}
	if v := os.Getenv("VAULTDECK_SESSIONS_N"); v != "" {
		ns = ns[:0]
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 {
				b.Fatalf("VAULTDECK_SESSIONS_N=%q: want numbers of sessions like 1,10,16", v)
			}
			ns = append(ns, n)
		}
	}
	s := newBinSessions(b, size)
	child := func(n int, mode string) (heap, peak float64) {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestServeSessionsChild$", "-test.count", "1", "-test.v")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d %s", sessionsChildEnv, n, mode),
			"SESSIONS_BASE="+s.url, "SESSIONS_TOKEN="+s.token, "SESSIONS_SIZE="+strconv.Itoa(size))
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%d sessions %s: %v\n%s", n, mode, err, out)
		}
		var h uint64
		for _, l := range strings.Split(string(out), "\n") {
			if _, err := fmt.Sscanf(l, "live-heap %d", &h); err == nil {
				break
			}
		}
		return float64(h) / (1 << 20), float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) / 1024 // KiB on Linux
	}
	for b.Loop() {
		for _, c := range sessionsCases[:2] {
			mode := strings.ReplaceAll(c.name, " ", "-")
			var heap1, peak1 float64
			for _, n := range ns {
				heap, peak := child(n, mode)
				if n == ns[0] {
					heap1, peak1 = heap, peak
				}
				b.ReportMetric(heap, fmt.Sprintf("heap-MiB-%d-%s", n, mode))
				b.ReportMetric(peak, fmt.Sprintf("peakRSS-MiB-%d-%s", n, mode))
				if n != ns[0] {
					b.ReportMetric(heap/heap1, fmt.Sprintf("heap-%d/%d-%s", n, ns[0], mode))
					b.ReportMetric(peak/peak1, fmt.Sprintf("peakRSS-%d/%d-%s", n, ns[0], mode))
				}
			}
		}
	}
	runtime.KeepAlive(s)
}
