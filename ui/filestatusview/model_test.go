package filestatusview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
)

func TestPollingStopsWhenAllTerminal(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	fake.set("ready_to_query", "b")
	r := newRig(t, fake, "a,b", Options{})
	r.run(r.m.Init())
	if fake.nCalls() != 1 || len(r.ticks) != 1 {
		t.Fatalf("after first poll: calls=%d ticks=%d, want 1/1", fake.nCalls(), len(r.ticks))
	}
	// Only the pending file is polled next time.
	fake.set("ready_to_query", "a")
	r.deliver()
	if got := fake.calls[1]; len(got) != 1 || got[0] != "a" {
		t.Errorf("second poll asked for %v, want [a]", got)
	}
	if len(r.ticks) != 0 || !r.m.nextAt.IsZero() {
		t.Fatalf("a tick was re-armed although every file is terminal")
	}
	if v := r.m.View(); !strings.Contains(v, "all settled") || !strings.Contains(v, "not polling") {
		t.Errorf("view does not say polling stopped:\n%s", v)
	}
	// The change is marked in the table's gutter.
	row, _ := r.m.Table.Selected()
	if row.ID != "a" || !row.Changed {
		t.Errorf("row %q changed=%v, want a marked", row.ID, row.Changed)
	}
}

func TestStaleTickIsDropped(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a", Options{})
	r.run(r.m.Init())
	stale := r.ticks[0]
	r.ticks = nil
	// A manual refresh supersedes the armed tick and arms its own.
	r.key(runes("r"))
	if fake.nCalls() != 2 || len(r.ticks) != 1 {
		t.Fatalf("refresh: calls=%d ticks=%d", fake.nCalls(), len(r.ticks))
	}
	_, cmd := r.m.Update(stale)
	if cmd != nil {
		t.Fatal("stale tick started a poll")
	}
	// A tick addressed to another view is ignored too.
	other := r.ticks[0]
	other.View++
	if _, cmd := r.m.Update(other); cmd != nil {
		t.Fatal("another view's tick started a poll")
	}
	if fake.nCalls() != 2 {
		t.Errorf("calls = %d, want 2", fake.nCalls())
	}
}

func TestInFlightGuard(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a", Options{})
	r.run(r.m.Init())
	tick := r.ticks[0]
	r.ticks = nil
	_, pollCmd := r.m.Update(tick) // poll started, its command not run yet
	if pollCmd == nil || !r.m.inFlight {
		t.Fatal("tick did not start a poll")
	}
	// While it runs: refresh is refused, the same tick again is dropped.
	_, cmd := r.m.Update(runes("r"))
	r.run(cmd)
	if len(r.stat) == 0 || !strings.Contains(r.stat[len(r.stat)-1].Text, "already running") {
		t.Errorf("refresh during a poll: status %v", r.stat)
	}
	if _, cmd := r.m.Update(tick); cmd != nil {
		t.Error("tick during a poll started another")
	}
	r.run(pollCmd)
	if fake.nCalls() != 2 || r.m.inFlight {
		t.Errorf("calls=%d inFlight=%v, want 2/false", fake.nCalls(), r.m.inFlight)
	}
}

func TestIntervalRespectsBudget(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a", Options{})
	r.run(r.m.Init())
	if r.waits[0] != 12*time.Second {
		t.Errorf("full budget: wait %v, want 12s (half of 10/min for one request)", r.waits[0])
	}
	if v := r.m.View(); !strings.Contains(v, "interval 12s") || !strings.Contains(v, "vault budget 10/10") {
		t.Errorf("interval/budget not on screen:\n%s", v)
	}
	// Other views spent the budget: the next tick polls nothing and waits
	// for the window to reset.
	fake.setBudget(api.BudgetStatus{Limit: 10, Remaining: 1, ResetIn: 37 * time.Second})
	r.deliver()
	if fake.nCalls() != 1 {
		t.Fatalf("polled with the budget low: %d calls", fake.nCalls())
	}
	if got := r.waits[len(r.waits)-1]; got != 37*time.Second {
		t.Errorf("low budget: wait %v, want ResetIn 37s", got)
	}
	if v := r.m.View(); !strings.Contains(v, "budget low") {
		t.Errorf("reason not shown:\n%s", v)
	}
	fake.setBudget(api.BudgetStatus{Limit: 10, Remaining: 10})
	r.deliver()
	if fake.nCalls() != 2 {
		t.Errorf("did not poll after the reset: %d calls", fake.nCalls())
	}
	// Refresh with nothing left at all is refused without a request.
	fake.setBudget(api.BudgetStatus{Limit: 10, Remaining: 0, ResetIn: 20 * time.Second})
	r.key(runes("r"))
	if fake.nCalls() != 2 {
		t.Errorf("refresh spent an exhausted budget")
	}
}

func TestLargeSetSplitsCalls(t *testing.T) {
	fake := newFake()
	ids := make([]string, 1500)
	for i := range ids {
		ids[i] = fmt.Sprintf("f%04d", i)
		fake.set("processing", ids[i])
	}
	r := newRig(t, fake, strings.Join(ids, ","), Options{})
	r.run(r.m.Init())
	seen := map[string]bool{}
	for _, c := range fake.calls {
		if len(c) > api.MaxFileIDs {
			t.Errorf("a call carried %d IDs", len(c))
		}
		for _, id := range c {
			seen[id] = true
		}
	}
	if len(fake.calls) != 2 || len(seen) != 1500 {
		t.Errorf("calls=%d distinct=%d, want 2/1500", len(fake.calls), len(seen))
	}
	if r.waits[0] != 24*time.Second {
		t.Errorf("two requests per poll: wait %v, want 24s", r.waits[0])
	}
}

func TestBackoffKeepsDataAndHonoursRetryAfter(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a", Options{})
	r.run(r.m.Init())
	fake.err = &api.Error{Kind: api.KindRateLimited, Status: 429, RetryAfter: 45 * time.Second}
	r.deliver()
	if got := r.waits[len(r.waits)-1]; got != 45*time.Second {
		t.Errorf("after 429: wait %v, want 45s", got)
	}
	if len(r.stat) == 0 || r.stat[len(r.stat)-1].Err == nil {
		t.Error("error not sent to the status line")
	}
	if v := r.m.View(); !strings.Contains(v, "a.pdf") || !strings.Contains(v, "last poll failed") {
		t.Errorf("last good data or error note missing:\n%s", v)
	}
	fake.err = &api.Error{Kind: api.KindServer, Status: 502}
	r.deliver()
	if got := r.waits[len(r.waits)-1]; got != 40*time.Second {
		t.Errorf("second failure: wait %v, want 40s (10s << 2)", got)
	}
	r.deliver()
	// The successful poll found nothing new: the quiet backoff (20s), not
	// the error backoff, decides the pause.
	if got := r.waits[len(r.waits)-1]; got != 20*time.Second || r.m.failures != 0 {
		t.Errorf("after success: wait %v failures %d", got, r.m.failures)
	}
}

func TestForbiddenStopsPolling(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	fake.err = &api.Error{Kind: api.KindForbidden, Status: 403, Permission: "Vault API"}
	r := newRig(t, fake, "a", Options{})
	r.run(r.m.Init())
	if len(r.ticks) != 0 || !r.m.stopped {
		t.Fatal("polling continued after 403")
	}
	r.key(runes("r"))
	if fake.nCalls() != 2 || len(r.ticks) != 1 {
		t.Errorf("refresh after 403: calls=%d ticks=%d", fake.nCalls(), len(r.ticks))
	}
}

func TestStuckAndNotFound(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a,ghost", Options{StuckAfter: 20 * time.Minute})
	r.run(r.m.Init())
	r.now = r.now.Add(21 * time.Minute)
	r.ticks = nil
	r.key(runes("r"))
	v := r.m.View()
	for _, want := range []string{"not found", "21m00s", "stuck 1", "missing 1"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
}

func TestPasteWithBOMAndCRLF(t *testing.T) {
	fake := newFake()
	fake.set("processing", uid1, uid2, uid3)
	r := newRig(t, fake, "", Options{})
	if !r.m.pasting || !r.m.CapturesInput() {
		t.Fatal("empty view should open the paste input")
	}
	r.run(r.m.Init())
	if fake.nCalls() != 0 {
		t.Fatal("polled with no IDs")
	}
	r.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("\uFEFF" + uid1 + "\r\n" + uid2 + ",\r\n" + uid3 + "\r\n"), Paste: true})
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if got := len(r.m.tr.Files); got != 3 {
		t.Fatalf("tracked %d files, want 3", got)
	}
	if fake.nCalls() != 1 || len(fake.calls[0]) != 3 {
		t.Errorf("paste did not poll the three IDs: %v", fake.calls)
	}
	// Pasting more while running adds only new IDs.
	r.key(runes("a"))
	r.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(uid3 + " " + uid4), Paste: true})
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if got := len(r.m.tr.Files); got != 4 {
		t.Errorf("tracked %d files, want 4", got)
	}
}

func TestEscapeSequencesRenderInert(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	fake.names["a"] = "memo\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b[Hfake.pdf"
	r := newRig(t, fake, "a,evil\x1b[31m", Options{})
	r.run(r.m.Init())
	v := r.m.View()
	if strings.ContainsRune(v, 0x1b) || strings.ContainsRune(v, 0x07) {
		t.Errorf("view carries control characters: %q", v)
	}
	if !strings.Contains(v, "memofake.pdf") {
		t.Errorf("sanitised name missing:\n%s", v)
	}
}

func TestSortAndFilterThroughTable(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	fake.set("ready_to_query", "b")
	r := newRig(t, fake, "a,b", Options{})
	r.run(r.m.Init())
	r.key(runes("/"))
	if !r.m.CapturesInput() {
		t.Fatal("filter input did not capture keys")
	}
	for _, c := range "ready" {
		r.key(runes(string(c)))
	}
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if r.m.Table.Len() != 1 || r.m.SelectedID() != "b" {
		t.Errorf("filter: len=%d selected=%q", r.m.Table.Len(), r.m.SelectedID())
	}
}

// TestAStatusNotKnownIsShownAsReceived: a status the client does not know
// ("completed") is shown as the service sent it and counted as unknown,
// not as processing for ever, and polling it stops.
func TestAStatusNotKnownIsShownAsReceived(t *testing.T) {
	fake := newFake()
	fake.set("completed", "a")
	r := newRig(t, fake, "a", Options{StuckAfter: 20 * time.Minute})
	r.run(r.m.Init())
	r.now = r.now.Add(21 * time.Minute)
	v := r.m.View()
	for _, want := range []string{"completed", "unknown 1", "processing 0", "stuck 0"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
}
