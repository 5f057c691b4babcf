package recyclebinview

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 19 case 8, in the bin: with a client-matter filter and a failed
// refresh, the info line at 80 columns cut the reason (and at 60 the
// UUID). It wraps instead, and the table gives up the line it takes.
func TestInfoLineNeverCutsTheFilterOrTheReason(t *testing.T) {
	const matter = "123e4567-e89b-12d3-a456-426614174000"
	for _, size := range [][2]int{{60, 20}, {80, 24}, {120, 40}} {
		fail := false
		fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) {
			if fail {
				return nil, errors.New("the service answered 503 Service Unavailable")
			}
			return fixture(), nil
		}}
		p := New(pagetest.Env(t, fake, false), matter)
		p.SetSize(size[0], size[1])
		p, _ = pagetest.Drive(p, p.Init())
		fail = true
		p, _ = pagetest.Press(p, "r")
		v := p.View()
		lines := strings.Split(v, "\n")
		if len(lines) > size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		flat := strings.Join(strings.Fields(v), " ")
		for _, want := range []string{"3 entries", "client-matter " + matter, "503 Service Unavailable", "Newest Deal"} {
			if !strings.Contains(flat, want) {
				t.Errorf("%dx%d: %q missing or cut:\n%s", size[0], size[1], want, v)
			}
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
	}
}
