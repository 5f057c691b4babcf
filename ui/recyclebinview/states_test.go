package recyclebinview

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// A failed load never reads as an empty bin: the error is on the page with
// r to retry; a refresh that fails keeps the rows and says they are stale.
func TestFailedLoadIsNotEmpty(t *testing.T) {
	fail := errors.New("connection refused")
	var err error = fail
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) {
		if err != nil {
			return nil, err
		}
		return fixture(), nil
	}}
	p := New(pagetest.Env(t, fake, false), "")
	p.SetSize(120, 20)
	p, _ = pagetest.Drive(p, p.Init())
	v := p.View()
	if strings.Contains(v, "0 entries") || strings.Contains(v, "nothing to show") ||
		!strings.Contains(v, "connection refused") || !strings.Contains(v, "r retries") {
		t.Fatalf("failed load:\n%s", v)
	}
	err = nil
	p, _ = pagetest.Press(p, "r")
	if v := p.View(); strings.Contains(v, "could not be loaded") || !strings.Contains(v, "entries") {
		t.Fatalf("after retry:\n%s", v)
	}
	err = fail
	p, _ = pagetest.Press(p, "r")
	if v := p.View(); !strings.Contains(v, "stale 0s, refresh failed: ") || strings.Contains(v, "nothing to show") {
		t.Fatalf("failed refresh:\n%s", v)
	}
}

// The purge countdown follows the clock without a key press or a reload:
// the page's 1-second tick repaints it.
func TestPurgeCountdownFollowsTheClock(t *testing.T) {
	now := pagetest.Now
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return fixture(), nil }}
	env := pagetest.Env(t, fake, false)
	env.Now = func() time.Time { return now }
	p := New(env, "")
	p.SetSize(120, 20)
	p, _ = pagetest.Drive(p, p.Init())
	if !strings.Contains(p.View(), "3h00m") {
		t.Fatalf("countdown:\n%s", p.View())
	}
	now = now.Add(time.Hour)
	p, _ = p.Update(page.ClockTick{Tag: page.Tag{View: p.(page.Identified).ID()}})
	if v := p.View(); !strings.Contains(v, "2h00m") || strings.Contains(v, "3h00m") {
		t.Fatalf("an hour later:\n%s", v)
	}
}
