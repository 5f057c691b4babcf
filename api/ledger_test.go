package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// ledgerSim is a rate-limited simulator, a store on disk as the shared
// ledger, and a clock both follow; each call of client is a new process
// (its own Budgets) with the given token.
func ledgerSim(t *testing.T) (*sim.Server, func(token string) *api.Client) {
	t.Helper()
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, Now: fixedClock}, SimClock: true, DefaultLimits: true})
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return e.Sim, func(token string) *api.Client {
		return e.NewClient(t, token, api.Config{Clock: e.Clock, Budgets: api.NewBudgets(), Ledger: st})
	}
}

// Issue 17 case 8: twelve processes one after another, with two tokens of
// the same workspace, share one vault budget through the ledger: the twelve
// requests are paced over the minute and the simulator answers no 429.
func TestLedgerSharesTheWorkspaceBudgetAcrossProcesses(t *testing.T) {
	s, client := ledgerSim(t)
	for i := range 12 {
		tok := []string{"admin", "vault-readonly"}[i%2]
		c := client(tok)
		if _, err := c.ProjectsPage(context.Background(), api.ProjectQuery{}); err != nil {
			t.Fatalf("process %d: %v", i+1, err)
		}
		if i == 9 {
			if b := c.Budget(api.CategoryVault); b.Remaining != 0 || b.Limit != 10 {
				t.Errorf("after ten sends the header would show %+v", b)
			}
		}
	}
	if n := s.RateLimited()["vault"]; n != 0 {
		t.Errorf("the simulator answered %d requests 429", n)
	}
	if waited(s) < time.Minute {
		t.Errorf("twelve requests went out within %v: the budget was not shared", waited(s))
	}
}

// Another integration of the organisation spends the limit unseen: the first
// process meets the 429, records the hold in the ledger and is stopped while
// it waits (Ctrl+C); the next process waits the hold out instead of meeting
// a second 429.
func TestLedgerA429HoldsEveryProcess(t *testing.T) {
	s, client := ledgerSim(t)
	other := s.Token("no-audit")
	for range 10 {
		req := httptest.NewRequest("GET", "/api/v1/vault/workspace/projects", nil)
		req.Header.Set("Authorization", "Bearer "+other)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("other integration: %d", rec.Code)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	ctx = api.WithWaitObserver(ctx, func(w api.Wait) {
		if w.Reason == api.WaitRetryAfter {
			cancel()
		}
	})
	if _, err := client("admin").ProjectsPage(ctx, api.ProjectQuery{}); err == nil {
		t.Fatal("the first process was not stopped in its wait")
	}
	if _, err := client("vault-readonly").ProjectsPage(context.Background(), api.ProjectQuery{}); err != nil {
		t.Fatalf("second process: %v", err)
	}
	if n := s.RateLimited()["vault"]; n != 1 {
		t.Errorf("the simulator answered %d requests 429, want only the first process's", n)
	}
	if waited(s) < time.Minute {
		t.Errorf("the second process went after %v, inside the hold", waited(s))
	}
}

// Learning the workspace asks whoami under the first limited request; that
// whoami must not reach what the caller's context carries for its own
// request (the console keeps the body it is handed as the cached listing).
// It did: serve's sessions showed "0 of 0 projects", whoami's body cached as
// the listing (TestFiveSessionsOneRecycleBinRequest).
func TestLedgerWorkspaceLookupKeepsToItself(t *testing.T) {
	_, client := ledgerSim(t)
	var bodies []string
	ctx := api.WithBodyCopy(context.Background(), 1<<20, func(b []byte) { bodies = append(bodies, string(b)) })
	if _, err := client("admin").ProjectsPage(ctx, api.ProjectQuery{}); err != nil {
		t.Fatal(err)
	}
	if len(bodies) != 1 || !strings.Contains(bodies[0], "projects") || strings.Contains(bodies[0], "workspace_name") {
		t.Errorf("the caller was handed %d bodies: %.200q", len(bodies), bodies)
	}
}
