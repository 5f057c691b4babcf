package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestFollowProgressIsKeptBesideItsCheckpoint: what a follower records of
// itself reads back whole under its checkpoint's name, leaves the
// checkpoint of that name as it was, and is absent for a name no follower
// used.
func TestFollowProgressIsKeptBesideItsCheckpoint(t *testing.T) {
	ctx := context.Background()
	st, err := Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SaveAuditCheckpoint(ctx, "file:/var/log/a.jsonl", "entry-9"); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	want := FollowProgress{EntryAt: at.Add(-time.Minute), CaughtUpAt: at, SuccessAt: at.Add(time.Second),
		FailingSince: at.Add(2 * time.Second), Failures: 3, Refused: true, Entries: 41, PID: 4242, Started: at.Add(-time.Hour)}
	if err := st.SaveFollowProgress(ctx, "file:/var/log/a.jsonl", want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := st.FollowProgress(ctx, "file:/var/log/a.jsonl")
	if err != nil || !ok || got.Updated.IsZero() {
		t.Fatalf("read back: %+v %v %v", got, ok, err)
	}
	got.Updated = time.Time{}
	if got != want {
		t.Errorf("read back %+v, want %+v", got, want)
	}
	if id, err := st.AuditCheckpoint(ctx, "file:/var/log/a.jsonl"); err != nil || id != "entry-9" {
		t.Errorf("the checkpoint beside it: %q %v", id, err)
	}
	if _, ok, err := st.FollowProgress(ctx, "nobody"); ok || err != nil {
		t.Errorf("a name no follower used: %v %v", ok, err)
	}
	if !ReservedCheckpointName(followProgressPrefix+"x") || ReservedCheckpointName("siem") {
		t.Error("ReservedCheckpointName")
	}
}
