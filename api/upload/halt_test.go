package upload

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// waitClock's Sleep ends when ctx does; a sleep nothing ends gives up after
// 5 s of real time and counts as slept (the broken case: the request goes).
type waitClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *waitClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *waitClock) Sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(5 * time.Second):
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	return nil
}

// TestAJournalErrorStopsTheRequestThatWaitsItsTurn: a lease renewal that
// fails while the next request waits for the budget stops that request
// unsent. Failing first (a full disk through the binary): the renewal
// failed at 30 s, the request waiting for the budget went out at 61 s, and
// its answer could not be recorded.
func TestAJournalErrorStopsTheRequestThatWaitsItsTurn(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true},
		DefaultLimits: true, Client: api.Config{Limits: api.Limits{Vault: 1}, Clock: &waitClock{now: time.Now()}}})
	s, client := e.Sim, e.Client
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	inj := storefault.New()
	st, err := inj.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rg := &rig{t: t, dir: t.TempDir()}
	plan := rg.files(2, 10)
	r := &Runner{API: client, Store: st, Profile: "default", maxBatchFiles: 1, renewEvery: -1}
	r.Wait = func(w api.Wait) {
		if w.Reason == api.WaitBudget {
			inj.FailAt(1, storefault.DiskFull) // the renewal's one statement
			r.renew()
		}
	}
	out, err := r.Upload(context.Background(), pid, plan, api.DuplicateKeep)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Join(out.Errors, "\n")
	n := -1
	for _, p := range s.Projects() {
		if p.ID == pid {
			n = p.FileCount
		}
	}
	if n != 1 || !strings.Contains(line, "the renewal of this upload's leases could not be recorded") || !strings.Contains(line, "Not sent: batch 2 (1 file)") || out.Unfinished != 1 {
		t.Fatalf("%d file(s) on the service, %d unfinished, %d uploaded, budget %+v, errors:\n%s", n, out.Unfinished, len(out.Uploaded), client.Budget(api.CategoryVault), line)
	}
}
