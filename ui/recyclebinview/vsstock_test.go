package recyclebinview

import (
	"context"
	"fmt"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/widgets/stocktable"
)

// BenchmarkKeyPressVsStock100k is issue 46's goal as one figure: the bin's
// key press at 100,000 rows against the stock bubbles table holding the same
// rows' text at the same 200x60, timed alternately in one run (ours/stock,
// goal at most 0.1).
func BenchmarkKeyPressVsStock100k(b *testing.B) {
	rb := bigBin(100_000)
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return rb, nil }}
	p := open(b, fake)
	p.SetSize(200, 60)
	rows := make([][]string, len(rb.Items))
	for i, e := range rb.Items {
		rows[i] = []string{e.VaultProject.Name, e.DeletedByUserEmail, e.DeletedAt.Format("2006-01-02 15:04"),
			e.RecycleBinPurgedScheduledAt.Format("2006-01-02 15:04"), fmt.Sprint(e.VaultProject.FilesCount), e.DeleteSource, "no"}
	}
	stock := stocktable.New([]string{"project", "deleted by", "deleted at", "purge in", "files", "source", "kbase"}, rows, 200, 60)
	down := pagetest.Key("down")
	stocktable.Compare(b, func() { p, _ = p.Update(down); _ = p.View() }, stock, down)
}
