package sim_test

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// BenchmarkSeedLarge measures generating the large workspace, which the
// demo does in the background while its first frame is drawn (BENCHMARKS.md).
func BenchmarkSeedLarge(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s := sim.New(sim.Options{Seed: sim.DefaultSeed, Scale: sim.ScaleLarge, Now: pinnedNow})
		if s.Token("admin") == "" {
			b.Fatal("no token")
		}
	}
}

// BenchmarkSeedSmall is the default demo's seed.
func BenchmarkSeedSmall(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sim.New(sim.Options{Seed: sim.DefaultSeed, Now: pinnedNow})
	}
}
