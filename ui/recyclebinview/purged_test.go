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

// TestTheBinReloadsAcrossAPurge (issue 42): the service (the simulator
// too) purges an entry at its scheduled time. An open bin whose shown
// entry's purge time passes reloads once, on its clock's tick, so that the
// purged entry leaves the table and the badge (a service whose purge lags
// keeps it, shown overdue, and the bin does not ask again for it); ticks
// with no purge passed, and a second purge within a minute of the reload,
// ask nothing (the vault budget is 10 requests a minute). Before, the
// entry stayed "overdue" on screen until r.
func TestTheBinReloadsAcrossAPurge(t *testing.T) {
	now, lags := pagetest.Now, false
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) {
		rb := &api.RecycleBin{}
		for _, e := range fixture().Items {
			if lags || e.RecycleBinPurgedScheduledAt.After(now) { // purged on time, as the simulator does
				rb.Items = append(rb.Items, e)
			}
		}
		rb.Total = api.Int(len(rb.Items))
		return rb, nil
	}}
	env := pagetest.Env(t, fake, false)
	env.Now = func() time.Time { return now }
	p := New(env, "")
	p.SetSize(120, 20)
	p, _ = pagetest.Drive(p, p.Init())
	tick := func() {
		t.Helper()
		q, c := p.Update(page.ClockTick{Tag: page.Tag{View: p.(page.Identified).ID()}})
		p, _ = pagetest.Drive(q, c)
	}
	if v := p.View(); !strings.Contains(v, "Newest Deal") || !strings.Contains(v, "1 purge within 24h") || fake.Calls("RecycleBin") != 1 {
		t.Fatalf("opened (%d requests):\n%s", fake.Calls("RecycleBin"), v)
	}
	now = now.Add(time.Hour)
	tick()
	if n := fake.Calls("RecycleBin"); n != 1 {
		t.Fatalf("a tick with no purge passed asked %d times", n)
	}
	now = now.Add(2*time.Hour + time.Second) // Newest Deal's purge time has passed
	tick()
	if v := p.View(); fake.Calls("RecycleBin") != 2 || strings.Contains(v, "Newest Deal") || strings.Contains(v, "purge within 24h") || !strings.Contains(v, "2 entries") {
		t.Fatalf("after its purge (%d requests):\n%s", fake.Calls("RecycleBin"), v)
	}
	tick()
	if n := fake.Calls("RecycleBin"); n != 2 {
		t.Fatalf("the tick after the reload asked again: %d requests", n)
	}
	// a service whose purge lags: Mid Case's time passes, the bin asks
	// once, the entry comes back and is shown overdue, and minutes later
	// nothing more is asked for it
	lags = true
	now = now.Add(5 * 24 * time.Hour)
	tick()
	now = now.Add(3 * reloadEvery)
	tick()
	if v := p.View(); fake.Calls("RecycleBin") != 3 || !strings.Contains(v, "overdue") || !strings.Contains(v, "Mid Case") {
		t.Fatalf("a lagging purge (%d requests, want 3):\n%s", fake.Calls("RecycleBin"), v)
	}
}
