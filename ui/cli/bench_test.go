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
// user+system time (the test server's share included), which it does not,
// and cpu-MB/s the body's size over it. Before each run the same body is
// fetched with a plain GET read into a buffer (not timed): its figures
// are the floor (floor-ms/op, floor-cpu-ms/op: the server, the loopback
// and net/http, no JSON, no redaction), and x-floor is the command's wall
// time over the floor's, run by run, a ratio that load on the machine moves
// far less than either. The side-by-side against curl and curl | python3
// json.load is in BENCHMARKS.md.
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
	var wall, cpu, floorWall, floorCPU time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		fw, fc := fetchFloor(b, srv.URL)
		floorWall, floorCPU = floorWall+fw, floorCPU+fc
		b.StartTimer()
		n++
		t0, c0 := time.Now(), cpuTime()
		if code := Main(context.Background(), []string{"recycle-bin", format}, env); code != 0 {
			b.Fatalf("exit %d", code)
		}
		wall, cpu = wall+time.Since(t0), cpu+cpuTime()-c0
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	b.ReportMetric(per(cpu), "cpu-ms/op")
	b.ReportMetric(float64(len(body))/1e6/(cpu.Seconds()/float64(n)), "cpu-MB/s")
	b.ReportMetric(per(floorWall), "floor-ms/op")
	b.ReportMetric(per(floorCPU), "floor-cpu-ms/op")
	b.ReportMetric(wall.Seconds()/floorWall.Seconds(), "x-floor")
}

// fetchFloor GETs url and reads the body into one reused buffer: the least any
// listing command costs on that body. It returns the wall and CPU time.
func fetchFloor(b *testing.B, url string) (wall, cpu time.Duration) {
	t0, c0 := time.Now(), cpuTime()
	resp, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 256<<10) // the command's read size (io.Copy to io.Discard reads 8 KB at a time)
	for err == nil {
		_, err = resp.Body.Read(buf)
	}
	resp.Body.Close()
	if err != io.EOF {
		b.Fatal(err)
	}
	return time.Since(t0), cpuTime() - c0
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
