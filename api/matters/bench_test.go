package matters_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// benchPairs is the size of the benchmarks: 1,000,000 pairs for the
// figures in BENCHMARKS.md (VAULTDECK_BENCH_MATTER_PAIRS=1000000), 100,000
// by default so that a single CI pass (-benchtime 1x) takes seconds.
func benchPairs(b *testing.B) int {
	if v := os.Getenv("VAULTDECK_BENCH_MATTER_PAIRS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			b.Fatalf("VAULTDECK_BENCH_MATTER_PAIRS=%q is not a positive number", v)
		}
		return n
	}
	return 100_000
}

// writeExport writes n distinct pairs as a spreadsheet would export them
// (BOM, header with an extra column, CRLF, some quoted fields) to a file,
// so that reading it streams from disk like the command does.
func writeExport(b *testing.B, n int) string {
	p := filepath.Join(b.TempDir(), "matters.csv")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("\uFEFFclient_id,matter_id,description\r\n")
	for i := range n {
		if i%10 == 0 {
			fmt.Fprintf(w, "\"%05d\",\"M-%07d\",\"closed, archived\"\r\n", 10000+i%50000, i)
		} else {
			fmt.Fprintf(w, "%05d,M-%07d,closed\r\n", 10000+i%50000, i)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return p
}

// BenchmarkReadPlan reads and checks a file of benchPairs pairs: parse,
// trim, whole-file duplicate detection, request plan. Goal for 1,000,000:
// under 1 s and under 200 MB. retained-MB is the heap still in use with the
// plan alive (what grows with the pairs); peak RSS is measured with
// /usr/bin/time -v on the test binary (see BENCHMARKS.md).
func BenchmarkReadPlan(b *testing.B) {
	n := benchPairs(b)
	path := writeExport(b, n)
	b.ReportAllocs()
	var retained uint64
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		file, err := matters.Read(f, matters.Auto)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		plan := matters.NewPlan(file.Pairs, 0)
		if len(plan.Send) != n || plan.Requests() != (n+api.MaxPairs-1)/api.MaxPairs {
			b.Fatalf("plan: %d to send in %d requests", len(plan.Send), plan.Requests())
		}
		b.StopTimer()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		retained = max(retained, ms.HeapInuse)
		runtime.KeepAlive(plan)
		b.StartTimer()
	}
	b.ReportMetric(float64(retained)/1e6, "retained-MB")
}

// BenchmarkDelete sends benchPairs pairs to the in-process simulator with
// rate limits off and asserts the number of requests: exactly one per
// 10,000 pairs (100 for 1,000,000).
func BenchmarkDelete(b *testing.B) {
	n := benchPairs(b)
	path := writeExport(b, n)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	file, err := matters.Read(f, matters.Auto)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	plan := matters.NewPlan(file.Pairs, 0)
	e := newEnv(b, "admin", sim.Options{Seed: 1, NoRateLimit: true}, api.Limits{Matters: -1})
	want := int64((n + api.MaxPairs - 1) / api.MaxPairs)
	b.ReportAllocs()
	for b.Loop() {
		before := e.requests.Load()
		rep := matters.SendDeletions(context.Background(), e.c, plan, matters.Hooks{})
		if rep.Err != nil || rep.Counts()[matters.ResultAlreadyAbsent] != n {
			b.Fatalf("%v %v", rep.Counts(), rep.Err)
		}
		if got := e.requests.Load() - before; got != want {
			b.Fatalf("%d requests, want exactly %d", got, want)
		}
		b.ReportMetric(float64(want), "requests/op")
	}
}
