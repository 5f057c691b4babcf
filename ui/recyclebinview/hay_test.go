package recyclebinview

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestFilterMatchesEveryCellWithSharedHaystacks: with the haystacks shared
// by the answer, the filter still finds a row by any cell, case-insensitive,
// the purge countdown (each session's clock, not in the shared haystacks)
// included; below and above the size the table filters in a command.
func TestFilterMatchesEveryCellWithSharedHaystacks(t *testing.T) {
	for _, n := range []int{3, 0} {
		rb := fixture()
		fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return rb, nil }}
		p := open(t, fake)
		if n == 0 {
			p.(*Model).Table.AsyncAbove = 1 // the filter runs in a command
		}
		cases := []struct{ q, want string }{
			{"newest", "b"}, {"MID", "c"}, // project names
			{"5d00h", "c"}, {"3H00", "b"}, // countdowns
			{"ann@firm", "b,c,a"}, // deleter, every row
			{"✓", "b"},            // the knowledge-base column
		}
		for _, c := range cases {
			q, _ := pagetest.Press(p, "/")
			q, _ = pagetest.Type(q, c.q)
			if got := strings.Join(q.(*Model).Table.VisibleIDs(), ","); got != c.want {
				t.Errorf("async=%v: filter %q shows %v, want %s", n == 0, c.q, got, c.want)
			}
			q, _ = pagetest.Press(q, "esc")
			p = q
		}
	}
}
