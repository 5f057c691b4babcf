package recyclebinview

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestSavedWindowIsTheOneSaid: a saved view opened with another
// --purging-within window says that window, not p's week, on the info
// line and in the by-deleter table's count (issue 31).
func TestSavedWindowIsTheOneSaid(t *testing.T) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return reviewBin(), nil }}
	for _, c := range []struct {
		window, entries, ann string
	}{
		{"30d", "5 entries", "2"}, // a (20d) and c (5d) are Ann's
		{"1d", "2 entries", "0"},  // b and d, both Bob's: Ann has no group
	} {
		p, err := FromQuery(pagetest.Env(t, fake, false), page.Query{Command: []string{"recycle-bin"}, Flags: []page.Flag{{Name: "purging-within", Value: c.window}}})
		if err != nil {
			t.Fatal(err)
		}
		p.SetSize(120, 20)
		p, _ = pagetest.Drive(p, p.Init())
		v := p.View()
		if !strings.Contains(v, c.entries) || !strings.Contains(v, "purging within "+c.window) || strings.Contains(v, "7d") {
			t.Errorf("--purging-within %s:\n%s", c.window, v)
		}
		p, _ = pagetest.Press(p, "b")
		v = p.View()
		if !strings.Contains(v, "within "+c.window) || strings.Contains(v, "7d") {
			t.Errorf("--purging-within %s, by deleter:\n%s", c.window, v)
		}
		for _, l := range strings.Split(v, "\n") {
			if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "ann") && (len(f) < 3 || f[2] != c.ann) {
				t.Errorf("--purging-within %s: Ann's row %q, want %s within", c.window, l, c.ann)
			}
		}
	}
}
