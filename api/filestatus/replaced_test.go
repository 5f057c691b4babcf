package filestatus

import (
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Issue 25, case 6: a file a later upload of its name superseded still
// reports processing_status "processing" in its file detail, with
// deleted_at set. It is shown as replaced: never processing, never stuck,
// never polled again, and R never picks it (R takes stuck or failed).
func TestSupersededFileIsReplacedNotProcessing(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	tr := NewTracker([]string{"old", "live"}, nil)
	tr.SetUploaded(map[string]time.Time{"old": now.Add(-2 * time.Hour), "live": now.Add(-2 * time.Hour)})
	deleted := &api.Time{Time: now.Add(-2 * time.Hour)}
	tr.Apply([]string{"old", "live"}, []api.FileDetail{
		{FileID: "old", FileName: "motion-1.pdf", ProcessingStatus: "processing", DeletedAt: deleted},
		{FileID: "live", FileName: "motion-1.pdf", ProcessingStatus: "processing"},
	}, now)
	old, live := &tr.Files[0], &tr.Files[1]
	if g := old.Group(now, 30*time.Minute); g != Replaced {
		t.Errorf("superseded file in group %v, want replaced", g)
	}
	if old.Label() != "replaced" || old.Stuck(now, 30*time.Minute) || !old.Terminal() {
		t.Errorf("superseded file: label %q, stuck %v, terminal %v", old.Label(), old.Stuck(now, 30*time.Minute), old.Terminal())
	}
	if g := live.Group(now, 30*time.Minute); g != Stuck {
		t.Errorf("the live file two hours in processing is %v, want stuck", g)
	}
	if got := tr.Batch(10, false); len(got) != 1 || got[0] != "live" {
		t.Errorf("next poll asks %v, want only the live file", got)
	}
}
