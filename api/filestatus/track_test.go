package filestatus

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func detail(id, status string) api.FileDetail {
	return api.FileDetail{FileID: id, FileName: "name-" + id, ProcessingStatus: api.Status(status)}
}

func TestTrackerChangeMarkingAndSince(t *testing.T) {
	tr := NewTracker([]string{"a", "b", "c"}, nil)
	tr.Apply([]string{"a", "b", "c"}, []api.FileDetail{
		detail("a", "processing"), detail("b", "uploaded"), {FileID: "c", Error: "not_found"},
	}, t0)
	for i := range tr.Files {
		if tr.Changed(&tr.Files[i]) {
			t.Errorf("%s marked changed on first sight", tr.Files[i].ID)
		}
	}
	if got := tr.Pending(); got != 2 {
		t.Fatalf("pending = %d, want 2 (not_found is terminal)", got)
	}
	t1 := t0.Add(time.Minute)
	n := tr.Apply([]string{"a", "b"}, []api.FileDetail{detail("a", "PROCESSING"), detail("b", "ready_to_query")}, t1)
	if n != 1 {
		t.Errorf("changed = %d, want 1 (case difference is not a change)", n)
	}
	a, b := &tr.Files[0], &tr.Files[1]
	if tr.Changed(a) || !tr.Changed(b) {
		t.Errorf("marks: a=%v b=%v, want false/true", tr.Changed(a), tr.Changed(b))
	}
	if !a.Since.Equal(t0) || !b.Since.Equal(t1) {
		t.Errorf("since: a=%v b=%v", a.Since, b.Since)
	}
	// The mark lasts one poll only.
	tr.Apply([]string{"a"}, []api.FileDetail{detail("a", "processing")}, t1.Add(time.Minute))
	if tr.Changed(b) {
		t.Error("b still marked after a later poll")
	}
	if got := tr.Pending(); got != 1 {
		t.Errorf("pending = %d, want 1", got)
	}
}

func TestTrackerMissingAnswerIsTerminal(t *testing.T) {
	tr := NewTracker([]string{"a", "b"}, nil)
	tr.Apply([]string{"a", "b"}, []api.FileDetail{detail("a", "processing")}, t0)
	if !tr.Files[1].Missing || tr.Pending() != 1 {
		t.Errorf("b missing=%v pending=%d", tr.Files[1].Missing, tr.Pending())
	}
	if got := tr.Files[1].Label(); got != "no answer" {
		t.Errorf("label = %q", got)
	}
}

func TestTrackerBatchRotates(t *testing.T) {
	ids := make([]string, 2500)
	for i := range ids {
		ids[i] = fmt.Sprint(i)
	}
	tr := NewTracker(ids, nil)
	seen := map[string]int{}
	for range 3 {
		for _, id := range tr.Batch(1000, false) {
			seen[id]++
		}
	}
	if len(seen) != 2500 {
		t.Errorf("three batches of 1000 covered %d distinct IDs, want 2500", len(seen))
	}
	// Terminal IDs are skipped.
	tr = NewTracker([]string{"a", "b", "c"}, nil)
	tr.Apply([]string{"b"}, []api.FileDetail{detail("b", "ready_to_query")}, t0)
	if got := tr.Batch(10, false); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("batch = %v", got)
	}
	if got := tr.Batch(10, true); len(got) != 3 {
		t.Errorf("batch(all) = %v", got)
	}
}

// TestAnswerInAnotherCaseIsTheFile: the service may answer an ID in
// another case than it was asked (UUIDs are case-insensitive). The
// console's tracker matched answers exactly, so a pasted upper-case ID
// read "no answer" while `status --watch` showed its status; one tracker
// now matches them as the watch did, and keeps one row per ID in any case.
func TestAnswerInAnotherCaseIsTheFile(t *testing.T) {
	const upper = "0B8E2F40-3C1A-4E55-9A0B-2D6C1E7F9A10"
	tr := NewTracker([]string{upper, "0b8e2f40-3c1a-4e55-9a0b-2d6c1e7f9a10"}, nil)
	if len(tr.Files) != 1 {
		t.Fatalf("one ID in two cases tracked as %d files", len(tr.Files))
	}
	tr.Apply([]string{upper}, []api.FileDetail{detail("0b8e2f40-3c1a-4e55-9a0b-2d6c1e7f9a10", "processing")}, t0)
	f := &tr.Files[0]
	if f.Missing || f.Label() != "processing" || f.ID != upper {
		t.Errorf("answer in lower case: missing %v, label %q, ID %q", f.Missing, f.Label(), f.ID)
	}
}

// TestRowFactsAskedOrRecorded: a journal row's last known status is the
// service's answer when it was asked now, else what the journal recorded.
func TestRowFactsAskedOrRecorded(t *testing.T) {
	now := t0.Add(2 * time.Hour)
	row := store.JournalFile{FileID: "f", Status: "processing", UploadedAt: t0}
	cases := []struct {
		name  string
		row   store.JournalFile
		d     api.FileDetail
		asked bool
		want  Group
		word  string
	}{
		{"recorded processing, old", row, api.FileDetail{}, false, Stuck, "processing"},
		{"recorded not found", store.JournalFile{FileID: "f", Status: "not_found", UploadedAt: t0}, api.FileDetail{}, false, Missing, "not found"},
		{"recorded replaced", store.JournalFile{FileID: "f", Status: "processing", UploadedAt: t0, DeletedAt: t0}, api.FileDetail{}, false, Replaced, "replaced"},
		{"asked: ready now", row, detail("f", "ready_to_query"), true, Ready, "ready_to_query"},
		{"asked: another error", row, api.FileDetail{FileID: "f", Error: "forbidden"}, true, Missing, "not found"},
		{"asked: superseded", row, api.FileDetail{FileID: "f", ProcessingStatus: "processing", DeletedAt: &api.Time{Time: t0}}, true, Replaced, "replaced"},
	}
	for _, c := range cases {
		f := RowFacts(c.row, c.d, c.asked)
		if g := Classify(f, now, 30*time.Minute); g != c.want || f.Word() != c.word {
			t.Errorf("%s: %v %q, want %v %q", c.name, g, f.Word(), c.want, c.word)
		}
	}
}
