package audit

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
)

func oneType(int) string { return "auth:login" }

func TestPagingLoadsOnlyNearTheEnd(t *testing.T) {
	log := newFakeLog(1000, oneType)
	r := newRig(t, log, "")
	r.run(r.m.Init())
	// Earliest plus one page: the cursor at the top is far from the end.
	if e, a := log.calls(); e != 1 || a != 1 {
		t.Fatalf("initial calls earliest=%d after=%d, want 1/1", e, a)
	}
	if got := r.m.Table.Total(); got != 1+pageSize {
		t.Fatalf("loaded %d, want %d", got, 1+pageSize)
	}
	// Moving down a little loads nothing.
	for range 10 {
		r.key(tea.KeyMsg{Type: tea.KeyDown})
	}
	if _, a := log.calls(); a != 1 {
		t.Fatalf("scrolling near the top loaded a page (%d calls)", a)
	}
	// Jumping to the bottom loads exactly the next page, from the last ID.
	r.key(runes("G"))
	if _, a := log.calls(); a != 2 || log.after[1] != "id-000200" {
		t.Fatalf("after G: calls %v", log.after)
	}
	// Keep going to the end: the log has 1000 entries, pages of 200; the
	// final page is short and paging stops.
	for range 10 {
		r.key(runes("G"))
	}
	if got := r.m.Table.Total(); got != 1000 {
		t.Errorf("loaded %d, want 1000", got)
	}
	_, a := log.calls()
	if !r.m.pager.done || a != 5 {
		t.Errorf("done=%v after-calls=%d, want true/5 (4 full pages + 1 short)", r.m.pager.done, a)
	}
	if v := r.m.View(); !strings.Contains(v, "1000 loaded (end of log)") {
		t.Errorf("header:\n%s", v)
	}
}

func TestNotFoundIsEmptyState(t *testing.T) {
	log := newFakeLog(0, oneType)
	r := newRig(t, log, "")
	r.run(r.m.Init())
	if v := r.m.View(); !strings.Contains(v, "no audit entries") {
		t.Errorf("empty state missing:\n%s", v)
	}
	for _, s := range r.stat {
		if s.Err != nil {
			t.Errorf("404 reported as an error: %v", s.Err)
		}
	}
	if _, a := log.calls(); a != 0 {
		t.Error("paged after an empty earliest")
	}
}

func TestForbiddenShownKeepingData(t *testing.T) {
	log := newFakeLog(300, oneType)
	r := newRig(t, log, "")
	r.run(r.m.Init())
	log.err = &api.Error{Kind: api.KindForbidden, Status: 403, Permission: "Territory admin or Organization admin"}
	r.key(runes("G"))
	if len(r.stat) == 0 || r.stat[len(r.stat)-1].Err == nil {
		t.Fatal("403 not sent to the status line")
	}
	v := r.m.View()
	if !strings.Contains(v, "lacks Territory admin or Organization admin") {
		t.Errorf("permission not named:\n%s", v)
	}
	if r.m.Table.Total() != 1+pageSize || !strings.Contains(v, "id-") && !strings.Contains(v, "auth:login") {
		t.Errorf("loaded data lost after the error (%d rows)", r.m.Table.Total())
	}
	// Scrolling again retries.
	log.err = nil
	r.key(tea.KeyMsg{Type: tea.KeyUp})
	if r.m.lastErr != nil || r.m.Table.Total() <= 1+pageSize {
		t.Errorf("retry did not load: err=%v rows=%d", r.m.lastErr, r.m.Table.Total())
	}
}

func TestTypeFilterEarliestServerSideRestClientSide(t *testing.T) {
	log := newFakeLog(600, func(i int) string {
		if i%50 == 3 {
			return "user:outlook_add_in_ask"
		}
		return "auth:login"
	})
	r := newRig(t, log, "")
	r.run(r.m.Init())
	r.key(runes("t")) // cycle: first observed type is auth:login
	if r.m.pager.logType != "auth:login" {
		t.Fatalf("cycled to %q", r.m.pager.logType)
	}
	r.key(runes("t"))
	if r.m.pager.logType != "user:outlook_add_in_ask" {
		t.Fatalf("cycled to %q", r.m.pager.logType)
	}
	if got := log.earliest[len(log.earliest)-1]; got != "user:outlook_add_in_ask" {
		t.Errorf("earliest asked with log_type %q", got)
	}
	for _, id := range r.m.Table.VisibleIDs() {
		e := r.m.pager.entries[r.m.byID[id]]
		if e.Type != "user:outlook_add_in_ask" {
			t.Fatalf("row %s of type %s shown under the filter", id, e.Type)
		}
	}
	// Few matches per page keep the cursor near the end, so pages load on
	// until the log ends (600 entries = 3 pages + short one).
	if !r.m.pager.done || r.m.Table.Total() != 12 {
		t.Errorf("done=%v rows=%d, want true/12", r.m.pager.done, r.m.Table.Total())
	}
	// Typing a type through the input.
	r.key(runes("T"))
	if !r.m.CapturesInput() {
		t.Fatal("type input does not capture keys")
	}
	r.key(tea.KeyMsg{Type: tea.KeyCtrlU})
	r.key(tea.KeyMsg{Type: tea.KeyEnd})
	r.key(tea.KeyMsg{Type: tea.KeyCtrlU})
	r.key(runes("nope:none"))
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if v := r.m.View(); !strings.Contains(v, "no audit entries of type nope:none") {
		t.Errorf("typed filter empty state:\n%s", v)
	}
}

func TestAutoLoadPausesOnSparseFilter(t *testing.T) {
	log := newFakeLog(3000, func(i int) string {
		if i == 0 {
			return "rare"
		}
		return "common"
	})
	r := newRig(t, log, "rare")
	r.run(r.m.Init())
	_, a := log.calls()
	if !r.m.paused || a != maxAutoPages-1 {
		t.Errorf("paused=%v after-calls=%d, want true/%d", r.m.paused, a, maxAutoPages-1)
	}
	r.key(tea.KeyMsg{Type: tea.KeyDown})
	if _, a2 := log.calls(); a2 <= a {
		t.Error("a key press did not resume loading")
	}
}

func TestDetailPaneShowsIndentedJSON(t *testing.T) {
	log := newFakeLog(1, oneType)
	log.entries[0].Data = json.RawMessage(`{"ip":"10.0.0.1","len_fetched_users":3,"site":"us"}`)
	log.entries[0].UserAgent = "Mozilla/5.0\x1b]52;c;ZXZpbA==\x07"
	r := newRig(t, log, "")
	r.run(r.m.Init())
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if !r.m.detail || !r.m.WantsEsc() {
		t.Fatal("enter did not open the detail pane")
	}
	v := r.m.View()
	for _, want := range []string{`"len_fetched_users": 3,`, `    "site": "us"`, "user_agent: Mozilla/5.0", "id-000000"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q:\n%s", want, v)
		}
	}
	if strings.ContainsRune(v, 0x1b) || strings.ContainsRune(v, 0x07) {
		t.Errorf("detail carries control characters: %q", v)
	}
	r.key(tea.KeyMsg{Type: tea.KeyEsc})
	if r.m.detail {
		t.Error("esc did not close the pane")
	}
}

func TestStaleResponseAfterTypeChangeDropped(t *testing.T) {
	log := newFakeLog(10, oneType)
	r := newRig(t, log, "")
	cmd := r.m.Init() // earliest for all types, not yet run
	r.key(runes("T"))
	r.key(runes("other"))
	r.key(tea.KeyMsg{Type: tea.KeyEnter}) // new filter: the first request is now stale
	r.run(cmd)
	if r.m.Table.Total() != 0 {
		t.Errorf("stale response added %d rows", r.m.Table.Total())
	}
}

func TestEscapesInRowsRenderInert(t *testing.T) {
	log := newFakeLog(2, oneType)
	log.entries[1].User = "x\x1b[2J\x1b[H@evil.example"
	log.entries[1].Type = "auth:login\x1b]8;;http://evil\x07"
	r := newRig(t, log, "")
	r.run(r.m.Init())
	if v := r.m.View(); strings.ContainsRune(v, 0x1b) || strings.ContainsRune(v, 0x07) {
		t.Errorf("view carries control characters: %q", v)
	}
}

// A first load that failed is not an empty log: the error is on the page
// with r to retry.
func TestFailedFirstLoadIsNotEmpty(t *testing.T) {
	f := newFakeLog(5, func(int) string { return "auth:login" })
	f.err = errors.New("the service answered 503")
	r := newRig(t, f, "")
	r.run(r.m.Init())
	v := r.m.View()
	if strings.Contains(v, "nothing to show") || !strings.Contains(v, "503") || !strings.Contains(v, "r retries") {
		t.Fatalf("failed first load:\n%s", v)
	}
	f.mu.Lock()
	f.err = nil
	f.mu.Unlock()
	r.key(runes("r"))
	if v := r.m.View(); !strings.Contains(v, "loaded") || strings.Contains(v, "r retries") {
		t.Fatalf("after retry:\n%s", v)
	}
}
