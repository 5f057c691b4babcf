package recyclebinview

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29's leftover: at 80x24 the demo's bin cut a project name by a few
// cells ("Bellhaven Shipping…ight — Refinancing") beside "deleted at" and
// "files". The name is the column people read: as in k9s and gh-dash, it
// is whole before a low-priority column (the deletion time, the counts)
// shows; those go first. Checked on the demo's seed at every size the
// console is kept for.
func TestBinNameWholeBeforeLowColumns(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: func() time.Time { return pagetest.Now }}})
	for _, size := range [][2]int{{60, 20}, {80, 24}, {100, 30}, {120, 40}} {
		p := New(pagetest.Env(t, e.Client, false), "")
		p.SetSize(size[0], size[1])
		p, _ = pagetest.Drive(p, p.Init())
		lines := strings.Split(p.View(), "\n")
		head := -1
		for i, l := range lines {
			if strings.Contains(l, "project") && strings.Contains(l, "deleted by") {
				head = i
				break
			}
		}
		if head < 0 {
			t.Fatalf("%dx%d: no table header:\n%s", size[0], size[1], p.View())
		}
		low := strings.Contains(lines[head], "deleted at") || strings.Contains(lines[head], "files") || strings.Contains(lines[head], "kbase")
		// at the common width the bin shows what an admin weighs a
		// deletion by: one long name cut in the middle is the better trade
		// than the file count of every row gone
		if size[0] >= 120 && !strings.Contains(lines[head], "files") {
			t.Errorf("%dx%d: the file count gave way to the longest names:\n%s", size[0], size[1], lines[head])
		}
		nameEnd := strings.Index(lines[head], "deleted by") // the header is ASCII: an index is a column
		seen := map[string]bool{}
		rows, cut := 0, 0
		for _, l := range lines[head+1:] {
			name := strings.TrimSpace(ansi.Truncate(l, nameEnd, ""))
			if name == "" {
				continue
			}
			rows++
			if strings.Contains(name, "…") {
				cut++
			}
			// the seed's names differ (some only in the middle or at the
			// end): cut or not, two never read the same
			if strings.Contains(name, "…") && seen[name] {
				t.Errorf("%dx%d: two names read %q", size[0], size[1], name)
			}
			seen[name] = true
		}
		// a low column shows only while nine names in ten are whole
		if low && cut*10 > rows {
			t.Errorf("%dx%d: %d of %d names cut while a low column shows:\n%s", size[0], size[1], cut, rows, strings.Join(lines[head:], "\n"))
		}
	}
}
