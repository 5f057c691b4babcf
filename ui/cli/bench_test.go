package cli

import (
	"context"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// BenchmarkRecycleBinJSON200k is `vaultdeck recycle-bin --json` on a
// 200,000-entry bin (about 136 MB), in process, output discarded. MB/s is
// wall time, which a loaded machine stretches; cpu-ms/op is the process's
// user+system time (the test server's share included), which it does not.
// The side-by-side against curl and curl | python3 json.load is in
// BENCHMARKS.md.
func BenchmarkRecycleBinJSON200k(b *testing.B) { benchBin(b, "--json") }

// BenchmarkRecycleBinCSV200k is the same with --csv: each entry's shown
// fields decoded (api.DecodeListed), a CSV record written.
func BenchmarkRecycleBinCSV200k(b *testing.B) { benchBin(b, "--csv") }

func benchBin(b *testing.B, format string) {
	body := faultserver.RecycleBinBody(200_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	env := Env{Stdout: io.Discard, Stderr: io.Discard, Limits: api.Limits{Vault: -1},
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": "bench-token-0123", "VAULTDECK_BASE_URL": srv.URL}[k]
		}}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	cpu0, n := cpuTime(), 0
	for b.Loop() {
		n++
		if code := Main(context.Background(), []string{"recycle-bin", format}, env); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(n), "cpu-ms/op")
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
