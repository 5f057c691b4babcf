package recyclebinview

import (
	"context"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// BenchmarkSortKey100k is one press of the sort key in a 100,000-entry
// bin: the sort keys are read from the records (sanitized names for the
// text columns) during the sort, not kept per row.
func BenchmarkSortKey100k(b *testing.B) {
	rb := bigBin(100_000)
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return rb, nil }}
	p := open(b, fake)
	for b.Loop() {
		p, _ = pagetest.Press(p, "o")
	}
}
