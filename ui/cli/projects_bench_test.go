package cli

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// BenchmarkProjectsJSONLarge is `vaultdeck projects --json` against the
// large simulator (320 projects, 4 pages), in process, output discarded.
// cpu-ms/op is the process's user+system time (the simulator's share
// included), which load on the machine stretches far less than wall time.
func BenchmarkProjectsJSONLarge(b *testing.B) {
	e := simtest.Start(b, simtest.Options{Sim: sim.Options{Scale: sim.ScaleLarge, NoRateLimit: true}})
	env := Env{Stdout: io.Discard, Stderr: io.Discard, Limits: simtest.Unlimited(),
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": e.Token("admin"), "VAULTDECK_BASE_URL": e.URL}[k]
		}}
	b.ReportAllocs()
	var cpu time.Duration
	n := 0
	for b.Loop() {
		n++
		c0 := cpuTime()
		if code := Main(context.Background(), []string{"projects", "--json"}, env); code != 0 {
			b.Fatalf("exit %d", code)
		}
		cpu += cpuTime() - c0
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/op")
}
