package recyclebinview

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// reviewBin: two people's deletions, one overdue, one within a day, one
// within the week, two later.
func reviewBin() *api.RecycleBin {
	day := 24 * time.Hour
	by := func(e api.RecycleBinEntry, who string) api.RecycleBinEntry { e.DeletedByUserEmail = who; return e }
	return &api.RecycleBin{Items: []api.RecycleBinEntry{
		by(entry("a", "Later Ann", day, 20*day), "ann@firm.test"),
		by(entry("b", "Today Bob", 2*day, 3*time.Hour), "bob@firm.test"),
		by(entry("c", "Week Ann", 3*day, 5*day), "ann@firm.test"),
		by(entry("d", "Overdue Bob", 31*day, -time.Hour), "bob@firm.test"),
		by(entry("e", "Later Bob", 4*day, 25*day), "bob@firm.test"),
	}, Total: 5}
}

// TestPurgingSoonFilterGroupsAndBadge: p keeps what is purged within 7
// days (overdue too), soonest first; b groups by deleter with counts and
// enter shows one person's entries; the info line carries a badge while
// something is purged within 24 hours; esc undoes each step.
func TestPurgingSoonFilterGroupsAndBadge(t *testing.T) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return reviewBin(), nil }}
	p := open(t, fake)
	p.SetSize(120, 20)
	v := p.View()
	if !strings.Contains(v, "5 entries · ⚠ 2 purge within 24h") {
		t.Fatalf("badge missing:\n%s", v)
	}
	p, _ = pagetest.Press(p, "p")
	v = p.View()
	if sel := p.(page.Selector).SelectedID(); sel != "p-d" {
		t.Errorf("cursor on %q after p, want the soonest purge (p-d) at the top", sel)
	}
	if !strings.Contains(v, "3 entries") || !strings.Contains(v, "purging within 7d") {
		t.Fatalf("purging soon:\n%s", v)
	}
	lines := strings.Split(v, "\n")
	order := []string{}
	for _, l := range lines {
		for _, n := range []string{"Overdue Bob", "Today Bob", "Week Ann", "Later Ann", "Later Bob"} {
			if strings.Contains(l, n) {
				order = append(order, n)
			}
		}
	}
	if strings.Join(order, ",") != "Overdue Bob,Today Bob,Week Ann" {
		t.Errorf("shown %v, want the 3 within 7 days soonest first:\n%s", order, v)
	}
	if !strings.Contains(v, "overdue") {
		t.Errorf("overdue not marked:\n%s", v)
	}

	p, _ = pagetest.Press(p, "b")
	v = p.View()
	if !strings.Contains(v, "by deleter: 2 people") || !strings.Contains(v, "deleted by") {
		t.Fatalf("groups:\n%s", v)
	}
	// the common domain is said once, in the header, not on every row
	if !strings.Contains(v, "deleted by @firm.test") {
		t.Errorf("no common domain in the header:\n%s", v)
	}
	bob := lineWith(v, "  bob ")
	ann := lineWith(v, "  ann ")
	if f := strings.Fields(bob); len(f) < 4 || f[1] != "2" || f[2] != "2" || f[3] != "overdue" {
		t.Errorf("bob's group %q: want 2 projects, 2 within 7d, next overdue", bob)
	}
	if f := strings.Fields(ann); len(f) < 4 || f[1] != "1" || f[2] != "1" {
		t.Errorf("ann's group %q", ann)
	}
	if got := p.(page.Selector).SelectedID(); got != "bob@firm.test" {
		t.Errorf("selected %q (most entries first)", got)
	}
	p, _ = pagetest.Press(p, "enter")
	v = p.View()
	if !strings.Contains(v, "2 entries") || !strings.Contains(v, "deleted by bob@firm.test") || strings.Contains(v, "Week Ann") {
		t.Errorf("bob's entries:\n%s", v)
	}
	p, _ = pagetest.Press(p, "esc") // the deleter: back to the people
	p, _ = pagetest.Press(p, "esc") // the people: back to the entries
	p, _ = pagetest.Press(p, "p")   // all purge times
	if v = p.View(); !strings.Contains(v, "5 entries") || strings.Contains(v, "purging within") || strings.Contains(v, "deleted by bob") {
		t.Errorf("back to all:\n%s", v)
	}
	if p.(page.EscHandler).WantsEsc() {
		t.Error("esc still wanted with nothing narrowed")
	}
	// without a purge within 24 hours, no badge
	fake.RecycleBinFn = func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) {
		rb := reviewBin()
		rb.Items = []api.RecycleBinEntry{rb.Items[0], rb.Items[2]}
		return rb, nil
	}
	p, _ = pagetest.Press(p, "r")
	if v = p.View(); strings.Contains(v, "⚠") || !strings.Contains(v, "2 entries") {
		t.Errorf("badge without an urgent entry:\n%s", v)
	}
}

func lineWith(v, s string) string {
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, s) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// BenchmarkPurgingSoon100k: p on and off over 100,000 loaded entries (the
// filter, the regrouping and the table's re-sort run in Update: no IO, but
// their cost is the key's).
func BenchmarkPurgingSoon100k(b *testing.B) {
	rb := bigBin(100_000)
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return rb, nil }}
	p := open(b, fake)
	b.ResetTimer()
	for b.Loop() {
		p, _ = pagetest.Press(p, "p")
		p, _ = pagetest.Press(p, "p")
	}
}
