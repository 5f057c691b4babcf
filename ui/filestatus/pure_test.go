package filestatus

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

func TestParseIDs(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", []string{}},
		{"commas", "a,b,c", []string{"a", "b", "c"}},
		{"spaces and commas", " a , b,,c ", []string{"a", "b", "c"}},
		{"crlf lines", "a\r\nb\r\nc\r\n", []string{"a", "b", "c"}},
		{"bom", "\uFEFFa\nb", []string{"a", "b"}},
		{"bom mid-paste", "a\n\uFEFFb", []string{"a", "b"}},
		{"tabs semicolons", "a\tb;c", []string{"a", "b", "c"}},
		{"quoted csv", `"a","b"`, []string{"a", "b"}},
		{"duplicates keep first order", "b,a,b,a", []string{"b", "a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ParseIDs(c.in)
			if !slices.Equal(got, c.want) {
				t.Errorf("ParseIDs(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestPlanPoll(t *testing.T) {
	base := 10 * time.Second
	full := budget{Limit: 10, Remaining: 10, ResetIn: 40 * time.Second}
	cases := []struct {
		name       string
		pending    int
		b          budget
		failures   int
		retryAfter time.Duration
		wantCalls  int
		wantWait   time.Duration
	}{
		{"nothing pending", 0, full, 0, 0, 0, 0},
		{"one call: half budget is 12s", 5, full, 0, 0, 1, 12 * time.Second},
		{"1500 ids need two calls", 1500, full, 0, 0, 2, 24 * time.Second},
		{"100k ids capped at half budget", 100000, full, 0, 0, 5, time.Minute},
		{"remaining limits calls", 5000, budget{Limit: 10, Remaining: 4, ResetIn: 30 * time.Second}, 0, 0, 2, 24 * time.Second},
		{"budget low waits for reset", 10, budget{Limit: 10, Remaining: 2, ResetIn: 33 * time.Second}, 0, 0, 0, 33 * time.Second},
		{"budget empty waits for reset", 10, budget{Limit: 10, Remaining: 0, ResetIn: 5 * time.Second}, 0, 0, 0, 5 * time.Second},
		{"reset in zero still waits a second", 10, budget{Limit: 10, Remaining: 0}, 0, 0, 0, time.Second},
		{"generous limit keeps base", 10, budget{Limit: 600, Remaining: 600}, 0, 0, 1, base},
		{"backoff doubles", 10, full, 2, 0, 1, 40 * time.Second},
		{"backoff capped", 10, full, 9, 0, 1, maxBackoff},
		{"retry-after wins", 10, full, 1, 90 * time.Second, 1, 90 * time.Second},
		{"unknown limit uses default", 10, budget{Remaining: 10}, 0, 0, 1, 12 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planPoll(c.pending, c.b, base, c.failures, c.retryAfter)
			if p.Calls != c.wantCalls || p.Wait != c.wantWait {
				t.Errorf("planPoll = %d calls / %v (%s), want %d / %v", p.Calls, p.Wait, p.Reason, c.wantCalls, c.wantWait)
			}
		})
	}
}

func TestPlanNeverExceedsHalfBudgetPerMinute(t *testing.T) {
	for pending := 1; pending <= 20000; pending += 333 {
		p := planPoll(pending, budget{Limit: 10, Remaining: 10}, time.Second, 0, 0)
		perMinute := float64(p.Calls) * float64(time.Minute) / float64(p.Wait)
		if perMinute > 5.0001 {
			t.Fatalf("pending %d: %d calls every %v = %.2f/min", pending, p.Calls, p.Wait, perMinute)
		}
	}
}

func TestManualCalls(t *testing.T) {
	cases := []struct {
		ids  int
		b    budget
		want int
	}{
		{5, budget{Limit: 10, Remaining: 1}, 1}, // may use the reserve
		{5, budget{Limit: 10, Remaining: 0}, 0},
		{2500, budget{Limit: 10, Remaining: 10}, 3},
		{50000, budget{Limit: 10, Remaining: 10}, 5},
	}
	for _, c := range cases {
		if got := manualCalls(c.ids, c.b); got != c.want {
			t.Errorf("manualCalls(%d, %+v) = %d, want %d", c.ids, c.b, got, c.want)
		}
	}
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func detail(id, status string) api.FileDetail {
	return api.FileDetail{FileID: id, FileName: "name-" + id, ProcessingStatus: api.Status(status)}
}

func TestTrackerChangeMarkingAndSince(t *testing.T) {
	tr := newTracker([]string{"a", "b", "c"})
	tr.apply([]string{"a", "b", "c"}, []api.FileDetail{
		detail("a", "processing"), detail("b", "uploaded"), {FileID: "c", Error: "not_found"},
	}, t0)
	for i := range tr.files {
		if tr.changed(&tr.files[i]) {
			t.Errorf("%s marked changed on first sight", tr.files[i].ID)
		}
	}
	if got := tr.pending(); got != 2 {
		t.Fatalf("pending = %d, want 2 (not_found is terminal)", got)
	}
	t1 := t0.Add(time.Minute)
	n := tr.apply([]string{"a", "b"}, []api.FileDetail{detail("a", "PROCESSING"), detail("b", "ready_to_query")}, t1)
	if n != 1 {
		t.Errorf("changed = %d, want 1 (case difference is not a change)", n)
	}
	a, b := &tr.files[0], &tr.files[1]
	if tr.changed(a) || !tr.changed(b) {
		t.Errorf("marks: a=%v b=%v, want false/true", tr.changed(a), tr.changed(b))
	}
	if !a.Since.Equal(t0) || !b.Since.Equal(t1) {
		t.Errorf("since: a=%v b=%v", a.Since, b.Since)
	}
	// The mark lasts one poll only.
	tr.apply([]string{"a"}, []api.FileDetail{detail("a", "processing")}, t1.Add(time.Minute))
	if tr.changed(b) {
		t.Error("b still marked after a later poll")
	}
	if got := tr.pending(); got != 1 {
		t.Errorf("pending = %d, want 1", got)
	}
}

func TestTrackerMissingAnswerIsTerminal(t *testing.T) {
	tr := newTracker([]string{"a", "b"})
	tr.apply([]string{"a", "b"}, []api.FileDetail{detail("a", "processing")}, t0)
	if !tr.files[1].Missing || tr.pending() != 1 {
		t.Errorf("b missing=%v pending=%d", tr.files[1].Missing, tr.pending())
	}
	if got := statusText(&tr.files[1]); got != "no answer" {
		t.Errorf("status = %q", got)
	}
}

func TestTrackerBatchRotates(t *testing.T) {
	ids := make([]string, 2500)
	for i := range ids {
		ids[i] = fmt.Sprint(i)
	}
	tr := newTracker(ids)
	seen := map[string]int{}
	for range 3 {
		for _, id := range tr.batch(1000, false) {
			seen[id]++
		}
	}
	if len(seen) != 2500 {
		t.Errorf("three batches of 1000 covered %d distinct IDs, want 2500", len(seen))
	}
	// Terminal IDs are skipped.
	tr = newTracker([]string{"a", "b", "c"})
	tr.apply([]string{"b"}, []api.FileDetail{detail("b", "ready_to_query")}, t0)
	if got := tr.batch(10, false); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("batch = %v", got)
	}
	if got := tr.batch(10, true); len(got) != 3 {
		t.Errorf("batch(all) = %v", got)
	}
}

func TestBuildRow(t *testing.T) {
	stuckAfter := 30 * time.Minute
	cases := []struct {
		name       string
		f          fileState
		now        time.Time
		wantStatus string
		wantAge    string
		wantStuck  bool
	}{
		{"unseen", fileState{ID: "x"}, t0, "…", "", false},
		{"processing fresh", fileState{Seen: true, Status: "processing", Since: t0}, t0.Add(5 * time.Minute), "processing", "5m00s", false},
		{"processing stuck", fileState{Seen: true, Status: "processing", Since: t0}, t0.Add(31 * time.Minute), "processing", "31m00s", true},
		{"uploaded stuck", fileState{Seen: true, Status: "UPLOADED", Since: t0}, t0.Add(2 * time.Hour), "uploaded", "2h00m", true},
		{"ready never stuck", fileState{Seen: true, Status: "ready_to_query", Since: t0}, t0.Add(48 * time.Hour), "ready_to_query", "2d00h", false},
		{"not found", fileState{Seen: true, NotFound: true, Since: t0}, t0.Add(time.Hour), "not found", "1h00m", false},
		{"other error", fileState{Seen: true, ErrText: "forbidden", Since: t0}, t0, "error: forbidden", "0s", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := buildRow(&c.f, false, c.now, stuckAfter)
			stuck := r.Cells[colFlag] == flagStuck
			if r.Cells[colStatus] != c.wantStatus || r.Cells[colInStatus] != c.wantAge || stuck != c.wantStuck {
				t.Errorf("row = %q stuck=%v, want status %q age %q stuck %v", r.Cells, stuck, c.wantStatus, c.wantAge, c.wantStuck)
			}
			if stuck != (r.Tones[colFlag] == widgets.ToneAlarm) {
				t.Errorf("flag tone %v disagrees with stuck=%v", r.Tones[colFlag], stuck)
			}
		})
	}
}

func TestNamesSanitisedOnArrival(t *testing.T) {
	tr := newTracker([]string{"a"})
	tr.apply([]string{"a"}, []api.FileDetail{{FileID: "a", FileName: "memo\x1b]52;c;ZXZpbA==\x07\x1b[2J.pdf", ProcessingStatus: "processing\x1b[31m"}}, t0)
	r := buildRow(&tr.files[0], false, t0, time.Hour)
	if r.Cells[colName] != "memo.pdf" || r.Cells[colStatus] != "processing" {
		t.Errorf("cells = %q", r.Cells)
	}
}

func TestFormatAge(t *testing.T) {
	cases := map[time.Duration]string{
		0:                                     "0s",
		59*time.Second + 900*time.Millisecond: "59s",
		61 * time.Second:                      "1m01s",
		3*time.Hour + 7*time.Minute:           "3h07m",
		52 * time.Hour:                        "2d04h",
	}
	for d, want := range cases {
		if got := formatAge(d); got != want {
			t.Errorf("formatAge(%v) = %q, want %q", d, got, want)
		}
	}
}
