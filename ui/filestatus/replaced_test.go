package filestatus

import (
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/triage"
)

// Issue 25, case 6: a file a later upload of its name superseded still
// reports processing_status "processing" in its file detail, with
// deleted_at set. It is shown as replaced: never processing, never stuck,
// never polled again, and R never picks it (R takes stuck or failed).
func TestSupersededFileIsReplacedNotProcessing(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	tr := newTracker([]string{"old", "live"})
	tr.setUploaded(map[string]time.Time{"old": now.Add(-2 * time.Hour), "live": now.Add(-2 * time.Hour)})
	deleted := &api.Time{Time: now.Add(-2 * time.Hour)}
	tr.apply([]string{"old", "live"}, []api.FileDetail{
		{FileID: "old", FileName: "motion-1.pdf", ProcessingStatus: "processing", DeletedAt: deleted},
		{FileID: "live", FileName: "motion-1.pdf", ProcessingStatus: "processing"},
	}, now)
	old, live := &tr.files[0], &tr.files[1]
	if g := groupOf(old, now, 30*time.Minute); g != triage.Replaced {
		t.Errorf("superseded file in group %v, want replaced", g)
	}
	if statusText(old) != "replaced" || isStuck(old, now, 30*time.Minute) || !old.terminal() {
		t.Errorf("superseded file: status %q, stuck %v, terminal %v", statusText(old), isStuck(old, now, 30*time.Minute), old.terminal())
	}
	if g := groupOf(live, now, 30*time.Minute); g != triage.Stuck {
		t.Errorf("the live file two hours in processing is %v, want stuck", g)
	}
	if got := tr.batch(10, false); len(got) != 1 || got[0] != "live" {
		t.Errorf("next poll asks %v, want only the live file", got)
	}
}
