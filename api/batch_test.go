package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestBudgetSharedAndReported(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.WriteString(w, `{"items":[],"total":0}`)
	}), func(c *Config) { c.Limits = Limits{Vault: 3}; c.Budgets = NewBudgets() })
	ctx := context.Background()
	if st := h.c.Budget(CategoryVault); st.Limit != 3 || st.Remaining != 3 {
		t.Fatalf("fresh budget %+v", st)
	}
	// A second client with the same registry, base URL and token shares it.
	other, _ := New(Config{BaseURL: h.srv.URL, Token: StaticToken(secretToken), Clock: h.clock,
		Limits: Limits{Vault: 3}, Budgets: h.c.budgets})
	for range 2 {
		if _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(ctx)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := binOf(other.RecycleBin(RecycleBinQuery{}).Collect(ctx)); err != nil {
		t.Fatal(err)
	}
	st := h.c.Budget(CategoryVault)
	if st.Remaining != 0 || st.ResetIn <= 0 || st.ResetIn > budgetWindow {
		t.Fatalf("after 3: %+v", st)
	}
	// The fourth waits (on the fake clock) for the window to move.
	before := h.clock.Now()
	if _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(ctx)); err != nil {
		t.Fatal(err)
	}
	if waited := h.clock.Now().Sub(before); waited < time.Minute {
		t.Errorf("waited only %v", waited)
	}
	if h.c.Budget(CategoryNone).Unlimited != true || h.c.Budget(CategoryAudit).Remaining != DefaultAuditLimit {
		t.Errorf("other categories: %+v %+v", h.c.Budget(CategoryNone), h.c.Budget(CategoryAudit))
	}
	// The registry never holds the token.
	for k := range h.c.budgets.buckets {
		if strings.Contains(k, "SECRET") {
			t.Errorf("key %q holds the token", k)
		}
	}
	// A different token gets its own bucket.
	third, _ := New(Config{BaseURL: h.srv.URL, Token: StaticToken("other"), Clock: h.clock, Limits: Limits{Vault: 3}, Budgets: h.c.budgets})
	binOf(third.RecycleBin(RecycleBinQuery{}).Collect(ctx))
	if st := third.Budget(CategoryVault); st.Remaining != 2 {
		t.Errorf("third: %+v", st)
	}
}

func TestBudget429BlocksEveryone(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, rateLimited(429, 1, "30", &n))
	if _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background())); err != nil {
		t.Fatal(err)
	}
	if s := h.clock.slept(); len(s) != 1 || s[0] != 30*time.Second {
		t.Errorf("sleeps %v", s) // the budget wait after the sleep must not add more
	}
}

func TestBudgetConcurrentNeverExceeds(t *testing.T) {
	b := NewBudgets()
	now := time.Unix(0, 0)
	var ok atomic.Int32
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, granted, _ := b.reserve("k", 10, now); granted {
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 10 {
		t.Fatalf("granted %d", ok.Load())
	}
}

func TestGetFilesSplits(t *testing.T) {
	var calls atomic.Int32
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		ids := strings.Split(r.URL.Query().Get("file_ids"), ",")
		if len(ids) > MaxFileIDs {
			w.WriteHeader(400)
			return
		}
		recs := make([]map[string]string, 0, len(ids))
		for i := len(ids) - 1; i >= 0; i-- { // server answers in reverse order
			if strings.HasPrefix(ids[i], "missing") {
				recs = append(recs, map[string]string{"file_id": ids[i], "error": "not_found"})
			} else {
				recs = append(recs, map[string]string{"file_id": ids[i], "file_name": ids[i] + ".pdf", "processing_status": "processing"})
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"response": map[string]any{"content": recs}})
	}), func(c *Config) { c.Limits = Limits{Vault: -1} })
	ids := make([]string, 2500)
	for i := range ids {
		ids[i] = fmt.Sprintf("id-%04d", i)
	}
	ids[7] = "missing-1"
	got, err := detailsOf(h.c.GetFiles(context.Background(), ids))
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 3 || len(got) != 2500 {
		t.Fatalf("calls %d, records %d", calls.Load(), len(got))
	}
	for i, r := range got {
		if r.FileID != ids[i] {
			t.Fatalf("record %d is %s", i, r.FileID)
		}
	}
	if !got[7].Failed() || got[8].Failed() {
		t.Errorf("failures: %+v %+v", got[7], got[8])
	}
}

func TestMattersSplit(t *testing.T) {
	var sizes []int
	var mu sync.Mutex
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Matters []MatterPair }
		json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		sizes = append(sizes, len(body.Matters))
		mu.Unlock()
		if len(body.Matters) > MaxPairs {
			w.WriteHeader(400)
			io.WriteString(w, `{"error":"too_many_items","detail":"max 10000"}`)
			return
		}
		var out MatterDeletion
		for _, p := range body.Matters {
			if strings.HasSuffix(p.MatterID, "0") {
				out.AlreadyAbsent = append(out.AlreadyAbsent, p)
			} else {
				out.Deleted = append(out.Deleted, p)
			}
		}
		json.NewEncoder(w).Encode(out)
	}))
	pairs := make([]MatterPair, 25_001)
	for i := range pairs {
		pairs[i] = MatterPair{"c", fmt.Sprint(i)}
	}
	r, err := h.c.DeleteMatters(context.Background(), pairs)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sizes) != "[10000 10000 5001]" {
		t.Errorf("batches %v", sizes)
	}
	if len(r.Deleted)+len(r.AlreadyAbsent) != len(pairs) || r.Deleted[0].MatterID != "1" || r.Deleted[len(r.Deleted)-1].MatterID != "25000"[:0]+"24999" {
		t.Errorf("merge: %d %d", len(r.Deleted), len(r.AlreadyAbsent))
	}
	if r.AlreadyAbsent[1].MatterID != "10" || r.AlreadyAbsent[len(r.AlreadyAbsent)-1].MatterID != "25000" {
		t.Errorf("order of already_absent")
	}
}
