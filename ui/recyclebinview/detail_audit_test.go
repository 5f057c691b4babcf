package recyclebinview

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestAuditFromTheDetailPane: A in the detail pane opens the audit log
// around the deletion shown, as A on its row does (the pane says "A opens
// it"); before, the pane took A as a scroll key and nothing opened.
func TestAuditFromTheDetailPane(t *testing.T) {
	bin := fixture()
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return bin, nil }}
	p := open(t, fake)
	_, fromRow := pagetest.Press(p, "A")
	p, _ = pagetest.Press(p, "enter")
	if !strings.Contains(p.View(), "purge in") {
		t.Fatalf("the detail pane did not open:\n%s", p.View())
	}
	_, fromPane := pagetest.Press(p, "A")
	route := func(out []any) string {
		for _, m := range out {
			if o, ok := m.(page.Open); ok {
				return o.Route + " " + o.Arg
			}
		}
		return ""
	}
	want := route(toAny(fromRow))
	if !strings.HasPrefix(want, "audit ") {
		t.Fatalf("A on the row opened %q", want)
	}
	if got := route(toAny(fromPane)); got != want {
		t.Fatalf("A in the detail pane opened %q, want %q as from its row", got, want)
	}
}

func toAny[T any](in []T) []any {
	out := make([]any, len(in))
	for i, v := range in {
		out[i] = v
	}
	return out
}
