package filestatus

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

func TestWordIsOneCasing(t *testing.T) {
	for _, s := range []api.Status{"READY_TO_QUERY", "ready_to_query", "Ready_To_Query"} {
		if Word(s) != "ready_to_query" {
			t.Errorf("%q -> %q", s, Word(s))
		}
	}
	if Word("") != "unknown" {
		t.Error("empty status")
	}
}

func TestClassify(t *testing.T) {
	now := time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
	old, fresh := now.Add(-10*time.Hour), now.Add(-time.Minute)
	cases := []struct {
		s        api.Status
		notFound bool
		since    time.Time
		want     Group
	}{
		{"READY_TO_QUERY", false, old, Ready},
		{"ready_to_review", false, old, Ready},
		{"processing", false, fresh, Processing},
		{"PROCESSING", false, old, Stuck},
		{"uploaded", false, old, Stuck},
		{"processing", false, time.Time{}, Processing},
		{"recoverable_failure", false, old, FailedRecoverable},
		{"UNRECOVERABLE_FAILURE", false, old, FailedUnrecoverable},
		{"", true, old, Missing},
	}
	for _, c := range cases {
		if g := Classify(Facts{Status: c.s, NotFound: c.notFound, Since: c.since}, now, 30*time.Minute); g != c.want {
			t.Errorf("%q notFound=%v since=%v: %v, want %v", c.s, c.notFound, c.since, g, c.want)
		}
	}
	var n Counts
	n[Ready], n[Stuck], n[FailedRecoverable], n[FailedUnrecoverable] = 2, 1, 1, 2
	if got := n.Line(); got != "ready 2 · processing 0 · stuck 1 · failed 3 (recoverable 1, unrecoverable 2) · missing 0" {
		t.Errorf("line %q", got)
	}
}

// TestAStatusNotKnownIsUnknown: a processing status the interface never
// named ("completed") is shown as received and counted as unknown, a group
// of its own and a final one (nothing the client knows of will come of
// it), never processing or stuck, however long it is held; an answer
// without a status is unknown too, unlike a file not answered yet.
func TestAStatusNotKnownIsUnknown(t *testing.T) {
	now := time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
	for _, s := range []api.Status{"completed", "COMPLETED", "ready", "processing\u200b", "failed"} {
		f := Facts{Status: s, Since: now.Add(-10 * time.Hour)}
		if g := Classify(f, now, 30*time.Minute); g != Unknown || !g.Final() {
			t.Errorf("%q: group %v (final %v), want unknown (final)", s, g, g.Final())
		}
		if w := f.Word(); w != strings.ToLower(string(s)) {
			t.Errorf("%q shown as %q, want it as received", s, w)
		}
	}
	if g := Classify(FactsOf(api.FileDetail{FileID: "a"}, now), now, 30*time.Minute); g != Unknown {
		t.Errorf("an answer without a status: %v, want unknown", g)
	}
	if g := Classify(Facts{}, now, 30*time.Minute); g != Processing {
		t.Errorf("a file not answered yet: %v, want processing", g)
	}
	var n Counts
	n[Ready], n[Unknown] = 1, 2
	if got := n.Line(); got != "ready 1 · processing 0 · stuck 0 · failed 0 · missing 0 · unknown 2" {
		t.Errorf("line %q", got)
	}
	if Unknown.String() != "unknown" {
		t.Errorf("the group is named %q", Unknown)
	}
}
