package recyclebinview

import (
	"context"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// frame is the longest an Update may block the event loop: one frame.
const frame = 16 * time.Millisecond

// BenchmarkFirstLoad100k opens the bin on 100,000 entries (with a cache, so
// the body is kept too) and reports the longest single Update: decoding,
// sorting and building rows must happen off the event loop.
func BenchmarkFirstLoad100k(b *testing.B) {
	rb := bigBin(100_000)
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return rb, nil }}
	var worst time.Duration
	for b.Loop() {
		env := pagetest.Env(b, fake, false)
		env.Cache = &pagetest.MapCache{}
		p := New(env, "")
		p.SetSize(200, 60)
		p, _, longest := pagetest.DriveTimed(p, p.Init())
		worst = max(worst, longest)
		if p.(*Model).Table.Len() != 100_000 {
			b.Fatalf("%d rows", p.(*Model).Table.Len())
		}
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-update-ms")
	if worst > frame {
		b.Errorf("an Update blocked the event loop for %v (goal: under %v)", worst, frame)
	}
}
