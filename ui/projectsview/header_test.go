package projectsview

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 19 case 8, in the list: a name filter and a failed refresh made
// the info line wider than 80 columns, and the terminal cut the reason.
// It wraps instead; the table gives up the line it takes.
func TestInfoLineNeverCutsTheReason(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		f, _ := server()
		ok := f.ProjectsFn
		fail := false
		f.ProjectsFn = func(ctx context.Context, q api.ProjectQuery) (*api.ProjectPage, error) {
			if fail {
				return nil, errors.New("the service answered 503 Service Unavailable")
			}
			return ok(ctx, q)
		}
		env := pagetest.Env(t, f, false)
		p := New(env, "Matter 1")
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
		for _, want := range []string{"100 of 100 loaded", `name contains "Matter 1"`, "503 Service Unavailable · r retries"} {
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
