package audit_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// removingMirror is the store, whose write-ahead log and index a cleaning
// script removes once the first page is saved.
type removingMirror struct {
	*store.Store
	saved int
}

func (m *removingMirror) SaveAuditPage(ctx context.Context, p store.AuditMirrorPage) error {
	err := m.Store.SaveAuditPage(ctx, p)
	if m.saved++; m.saved == 1 {
		os.Remove(m.Path() + "-wal")
		os.Remove(m.Path() + "-shm")
	}
	return err
}

// TestSyncStopsWhenTheDatabaseFilesChange (issue 40): the sync stops with the
// change named, at most the one page read ahead is asked after it, and the
// pages it saved are in the database file.
func TestSyncStopsWhenTheDatabaseFilesChange(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 7, NoRateLimit: true, AuditEntries: 4500}, nil)
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := &removingMirror{Store: st}
	saved := int64(-1)
	j := &audit.Job{Svc: r.client, Mirror: m, Progress: func(p audit.Progress) {
		if saved < 0 {
			saved = r.requests.Load()
		}
	}}
	_, err = j.Sync(context.Background())
	if !errors.Is(err, store.ErrChanged) {
		t.Fatalf("the sync after its files changed: %v, want store.ErrChanged", err)
	}
	if after := r.requests.Load() - saved; after > 1 {
		t.Errorf("%d pages were asked after the database's files changed, want at most the one read ahead", after)
	}
	log := audit.LogKey(r.client.Base(), mustWorkspace(t, r))
	if got := mirroredIDs(t, m, log); len(got) == 0 {
		t.Errorf("the page saved before the change is not in the mirror")
	}
}

// damagedMirror is the store whose check found the file damaged.
type damagedMirror struct{ *store.Store }

func (damagedMirror) Check() error {
	return &store.DamagedError{Path: "vaultdeck.db", Detail: "page 87"}
}

// TestSyncAndFollowRefuseADamagedStore (issue 40): before, `audit sync` and
// `audit follow --out` went on writing into a file the journal's reads
// refused. Now neither sends a request nor writes.
func TestSyncAndFollowRefuseADamagedStore(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 7, NoRateLimit: true, AuditEntries: 600}, nil)
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	j := &audit.Job{Svc: r.client, Mirror: damagedMirror{st}}
	if _, err := j.Sync(context.Background()); !errors.Is(err, store.ErrDamaged) {
		t.Errorf("sync into a damaged store: %v, want store.ErrDamaged", err)
	}
	sink := &audit.WriterSink{W: bufio.NewWriter(io.Discard), Checkpoints: st, CheckpointName: "siem"}
	if err := j.Follow(context.Background(), audit.FollowOptions{Sink: sink, Once: true}); !errors.Is(err, store.ErrDamaged) {
		t.Errorf("follow into a damaged store: %v, want store.ErrDamaged", err)
	}
	if n := r.requests.Load(); n != 0 {
		t.Errorf("%d log requests were sent", n)
	}
	if st2, _ := st.AuditState(context.Background(), audit.LogKey(r.client.Base(), mustWorkspace(t, r))); st2.Entries != 0 {
		t.Errorf("%d entries were written into the damaged store", st2.Entries)
	}
}
