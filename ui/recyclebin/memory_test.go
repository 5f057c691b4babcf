package recyclebin

import (
	"context"
	"runtime"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// liveHeap is the heap in use after a full collection: what a program
// holds, without garbage that RSS may or may not still include.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// minimal is the smallest Bubble Tea model that shows the same bin: the
// decoded entries and a cursor.
type minimal struct {
	items  []api.RecycleBinEntry
	cursor int
}

// BenchmarkBinMemory100k measures, in one run, the live heap of the
// recycle-bin view holding 100,000 entries against a minimal model holding
// the same entries (goal: within 1.2x), and the view's heap after ten
// refreshes against after the first (goal: within 10%: one copy of rows).
// Every answer is a fresh decode, as from the service.
func BenchmarkBinMemory100k(b *testing.B) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) {
		return bigBin(100_000), nil
	}}
	var ratio, growth float64
	for b.Loop() {
		base := liveHeap()
		m := &minimal{items: bigBin(100_000).Items}
		small := liveHeap() - base
		runtime.KeepAlive(m)
		m = nil

		base = liveHeap()
		p := New(pagetest.Env(b, fake, false), "")
		p.SetSize(200, 60)
		p, _ = pagetest.Drive(p, p.Init())
		first := liveHeap() - base
		for range 9 {
			p, _ = pagetest.Press(p, "r")
		}
		tenth := liveHeap() - base
		if n := p.(*Model).Table.Len(); n != 100_000 {
			b.Fatalf("%d rows", n)
		}
		runtime.KeepAlive(p)
		ratio, growth = float64(first)/float64(small), float64(tenth)/float64(first)
		b.ReportMetric(float64(small)/(1<<20), "minimal-MiB")
		b.ReportMetric(float64(first)/(1<<20), "view-MiB")
		b.ReportMetric(float64(tenth)/(1<<20), "view-after-10-MiB")
	}
	b.ReportMetric(ratio, "view/minimal")
	b.ReportMetric(growth, "after10/after1")
}
