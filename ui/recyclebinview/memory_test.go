package recyclebinview

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
// decoded entries.
type minimal struct {
	items []api.RecycleBinEntry
}

// binHeap measures, in one run, the live heap of a minimal model holding
// n entries, of the recycle-bin view after its first load of n entries,
// and of the view after refreshes more times (each answer a fresh decode,
// as from the service).
func binHeap(tb testing.TB, n, refreshes int) (small, first, after uint64) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) {
		return bigBin(n), nil
	}}
	base := liveHeap()
	m := &minimal{items: bigBin(n).Items}
	small = liveHeap() - base
	runtime.KeepAlive(m)
	m = nil

	base = liveHeap()
	p := New(pagetest.Env(tb, fake, false), "")
	p.SetSize(200, 60)
	p, _ = pagetest.Drive(p, p.Init())
	first = liveHeap() - base
	for range refreshes {
		p, _ = pagetest.Press(p, "r")
	}
	after = liveHeap() - base
	if got := p.(*Model).Table.Len(); got != n {
		tb.Fatalf("%d rows, want %d", got, n)
	}
	runtime.KeepAlive(p)
	return small, first, after
}

// TestBinMemoryWithinGoal guards issue 11's memory goal on a smaller bin:
// the view may hold its records, its display order and little else (the
// table builds cells for the visible window only), so it stays within
// 1.2x of a minimal model holding the same entries.
func TestBinMemoryWithinGoal(t *testing.T) {
	small, first, _ := binHeap(t, 20_000, 0)
	if ratio := float64(first) / float64(small); ratio > 1.2 {
		t.Errorf("view holds %.1f MiB for 20,000 entries, %.2fx the minimal model's %.1f MiB (goal ≤ 1.2x)",
			float64(first)/(1<<20), ratio, float64(small)/(1<<20))
	}
}

// BenchmarkBinMemory100k measures, in one run, the live heap of the
// recycle-bin view holding 100,000 entries against a minimal model holding
// the same entries (goal: within 1.2x), and the view's heap after ten
// refreshes against after the first (goal: within 10%: one copy of rows).
func BenchmarkBinMemory100k(b *testing.B) {
	var ratio, growth float64
	for b.Loop() {
		small, first, tenth := binHeap(b, 100_000, 9)
		ratio, growth = float64(first)/float64(small), float64(tenth)/float64(first)
		b.ReportMetric(float64(small)/(1<<20), "minimal-MiB")
		b.ReportMetric(float64(first)/(1<<20), "view-MiB")
		b.ReportMetric(float64(tenth)/(1<<20), "view-after-10-MiB")
	}
	b.ReportMetric(ratio, "view/minimal")
	b.ReportMetric(growth, "after10/after1")
}
