package matters_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// csvOf writes n live matters of the seed as a headerless CSV, one per line.
func csvOf(ms []sim.MatterInfo) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(m.ClientID + "," + m.MatterID + "\n")
	}
	return b.String()
}

func smallBatches(plan *matters.Plan, n int) *matters.Plan {
	// Requests of n pairs make several requests out of a few seeded
	// matters; the 10,000 cut itself is tested in TestCrossBatchDuplicate.
	plan.BatchSize = n
	return plan
}

// A whole-request 400 maps its validation_errors back to lines, deletes
// nothing of that request, and stops: the lines sent before it are named.
func TestWholeRequest400(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 1}, api.Limits{})
	e.intercept = func(n int64, w http.ResponseWriter, r *http.Request) bool {
		if n != 2 {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]any{"error": "invalid_request", "detail": "The request body is invalid",
			"validation_errors": []any{map[string]any{"loc": []any{"matters", 1, "client_id"}, "type": "string_type"}}})
		return true
	}
	ms := live(t, e.s, 6)
	plan := smallBatches(matters.NewPlan(read(t, csvOf(ms)), 0), 2)
	var batches []int
	rep := matters.SendDeletions(context.Background(), e.c, plan, matters.Hooks{
		Batch: func(k int, outs []matters.Outcome) error { batches = append(batches, k); return nil }})
	if rep.Err == nil || !strings.Contains(rep.Err.Error(), "invalid_request") {
		t.Fatalf("err = %v", rep.Err)
	}
	if rep.SentLines != "1-2" || rep.Sent != 1 {
		t.Errorf("sent %d lines %q, want 1 request with lines 1-2", rep.Sent, rep.SentLines)
	}
	got := []string{}
	for _, o := range rep.Outcomes {
		got = append(got, string(o.Result)+":"+o.Code)
	}
	want := "deleted:,deleted:,error:invalid_request,error:invalid_request,not_sent:,not_sent:"
	if strings.Join(got, ",") != want {
		t.Fatalf("outcomes %v\nwant %s", got, want)
	}
	if d := rep.Outcomes[3].Detail; !strings.Contains(d, "client_id string_type") {
		t.Errorf("line 4 detail %q should name its validation error", d)
	}
	if !strings.Contains(rep.Outcomes[2].Detail, "nothing in it changed") {
		t.Errorf("line 3 detail %q", rep.Outcomes[2].Detail)
	}
	for _, m := range e.s.Matters() {
		for _, x := range ms[2:] {
			if m.ServiceID == x.ServiceID && m.Deleted {
				t.Errorf("matter of a rejected or unsent request was deleted: %+v", m)
			}
		}
	}
	if len(batches) != 3 || batches[0] != 0 {
		t.Errorf("batch hooks %v, want 0 (refused before sending), 1, 2", batches)
	}
}

// cancelAfter cancels the run once the first request has been answered.
type cancelAfter struct {
	matters.Service
	cancel context.CancelFunc
}

func (c cancelAfter) DeleteMatters(ctx context.Context, p []api.MatterPair) (*api.MatterDeletion, error) {
	res, err := c.Service.DeleteMatters(ctx, p)
	c.cancel()
	return res, err
}

func TestCancelBetweenRequestsAndRerun(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 1}, api.Limits{})
	ms := live(t, e.s, 5)
	pairs := read(t, csvOf(ms))
	ctx, cancel := context.WithCancel(context.Background())
	rep := matters.SendDeletions(ctx, cancelAfter{e.c, cancel}, smallBatches(matters.NewPlan(pairs, 0), 2), matters.Hooks{})
	if !rep.Canceled || rep.SentLines != "1-2" {
		t.Fatalf("canceled %v, sent lines %q", rep.Canceled, rep.SentLines)
	}
	c := rep.Counts()
	if c[matters.ResultDeleted] != 2 || c[matters.ResultNotSent] != 3 {
		t.Fatalf("counts %v", c)
	}
	if !strings.Contains(rep.Outcomes[4].Detail, "canceled") {
		t.Errorf("detail %q", rep.Outcomes[4].Detail)
	}
	// Re-running the same file is safe: the sent pairs are already absent.
	rep = matters.SendDeletions(context.Background(), e.c, smallBatches(matters.NewPlan(pairs, 0), 2), matters.Hooks{})
	c = rep.Counts()
	if rep.Err != nil || c[matters.ResultAlreadyAbsent] != 2 || c[matters.ResultDeleted] != 3 || rep.Errors() {
		t.Fatalf("re-run: %v %v", c, rep.Err)
	}
}

func TestRestoreBringsMattersBack(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 1}, api.Limits{})
	ms := live(t, e.s, 3)
	rep := matters.SendDeletions(context.Background(), e.c, matters.NewPlan(read(t, " "+csvOf(ms)), 0), matters.Hooks{})
	var deleted []matters.Pair
	for _, o := range rep.Outcomes {
		if o.Result == matters.ResultDeleted {
			deleted = append(deleted, matters.Pair{Line: o.Line, ClientID: o.ClientID, MatterID: o.MatterID})
		}
	}
	if len(deleted) != 3 {
		t.Fatalf("deleted %d", len(deleted))
	}
	back := matters.SendRestores(context.Background(), e.c, deleted, matters.Hooks{})
	if back.Err != nil || back.Counts()[matters.ResultRestored] != 3 {
		t.Fatalf("restore: %+v %v", back.Outcomes, back.Err)
	}
	for _, m := range e.s.Matters() {
		for _, x := range ms {
			if m.ServiceID == x.ServiceID && m.Deleted {
				t.Errorf("still deleted after restore: %+v", m)
			}
		}
	}
}

func Test401NamesThePermission(t *testing.T) {
	e := newEnv(t, "no-matters", sim.Options{Seed: 1}, api.Limits{})
	rep := matters.SendDeletions(context.Background(), e.c, matters.NewPlan(read(t, "C,M\n"), 0), matters.Hooks{})
	if rep.Err == nil || !strings.Contains(rep.Err.Error(), "Client matters admin") {
		t.Fatalf("err = %v", rep.Err)
	}
	if rep.Sent != 0 || rep.Outcomes[0].Code != "http_401" {
		t.Errorf("sent %d, outcome %+v", rep.Sent, rep.Outcomes[0])
	}
}

// With the service's limit at 2 a minute, 5 requests wait out the budget
// (and any 429's Retry-After) on the shared clock and all succeed.
func TestRequestsStayWithinTheBudget(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 1, Limits: sim.Limits{Matters: 2}}, api.Limits{Matters: 2})
	ms := live(t, e.s, 5)
	plan := smallBatches(matters.NewPlan(read(t, csvOf(ms)), 2), 1)
	if plan.MinDuration() != 2*time.Minute {
		t.Errorf("min duration %v, want 2m", plan.MinDuration())
	}
	var progress []int
	rep := matters.SendDeletions(context.Background(), e.c, plan, matters.Hooks{
		Progress: func(p matters.Progress) { progress = append(progress, p.Request) }})
	if rep.Err != nil || rep.Counts()[matters.ResultDeleted] != 5 {
		t.Fatalf("%v %v", rep.Counts(), rep.Err)
	}
	if len(progress) != 5 || progress[4] != 5 {
		t.Errorf("progress %v", progress)
	}
}

// A 429 from the service (its window disagrees with ours) or a 503 is
// waited out with Retry-After; DELETE may be repeated (rule 7).
func TestDeleteRetriedOn429And503(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		e := newEnv(t, "admin", sim.Options{Seed: 1}, api.Limits{})
		e.intercept = func(n int64, w http.ResponseWriter, r *http.Request) bool {
			if n == 1 {
				w.Header().Set("Retry-After", "7")
				w.WriteHeader(status)
				return true
			}
			return false
		}
		rep := matters.SendDeletions(context.Background(), e.c, matters.NewPlan(read(t, csvOf(live(t, e.s, 1))), 0), matters.Hooks{})
		if rep.Err != nil || rep.Counts()[matters.ResultDeleted] != 1 || e.requests.Load() != 2 {
			t.Fatalf("%d: %v %v requests %d", status, rep.Counts(), rep.Err, e.requests.Load())
		}
	}
}

// The upsert is never repeated: a 503 leaves its pairs outcome_unknown.
func TestRestoreNotRetried(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 1}, api.Limits{})
	e.intercept = func(n int64, w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(http.StatusServiceUnavailable)
		return true
	}
	rep := matters.SendRestores(context.Background(), e.c, []matters.Pair{{Line: 2, ClientID: "C", MatterID: "M"}}, matters.Hooks{})
	if rep.Err == nil || e.requests.Load() != 1 || rep.Outcomes[0].Code != matters.CodeUnknown {
		t.Fatalf("err %v requests %d outcome %+v", rep.Err, e.requests.Load(), rep.Outcomes[0])
	}
}

// "Lines sent" is exact: a pair refused before sending breaks the range.
func TestSentLinesSkipRefusedPairs(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 1}, api.Limits{})
	rep := matters.SendDeletions(context.Background(), e.c, matters.NewPlan(read(t, "A,1\nA,1\nB,2\n\nC,3\n"), 0), matters.Hooks{})
	if rep.Err != nil || rep.SentLines != "1, 3-5" {
		t.Fatalf("sent lines %q, want \"1, 3-5\" (line 2 repeats line 1; line 4 is blank)", rep.SentLines)
	}
}
