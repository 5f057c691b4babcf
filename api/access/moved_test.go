package access_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
)

// removing is the store, whose write-ahead log and index a cleaning script
// removes once the first project is committed.
type removing struct {
	*store.Store
	n int
}

func (r *removing) CommitAccessProject(id int64, p store.AccessProject, users []store.AccessGrant) error {
	err := r.Store.CommitAccessProject(id, p, users)
	if r.n++; r.n == 1 {
		os.Remove(r.Path() + "-wal")
		os.Remove(r.Path() + "-shm")
	}
	return err
}

// TestCrawlStopsWhenTheDatabaseFilesChange (issue 40): no project's users are
// read after the database's files changed, the crawl says what changed, and
// the project committed before is kept.
func TestCrawlStopsWhenTheDatabaseFilesChange(t *testing.T) {
	h := newHarness(t, -1)
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = h.crawler(&removing{Store: st}).Run(context.Background())
	if !errors.Is(err, store.ErrChanged) {
		t.Fatalf("the crawl after its files changed: %v, want store.ErrChanged", err)
	}
	if users, _ := h.reset(); users != 1 {
		t.Errorf("%d projects' users were read, want the first only", users)
	}
	snaps, _ := st.AccessSnapshots("work")
	if len(snaps) != 1 || snaps[0].Read != 1 {
		t.Errorf("snapshots %+v, want one with the project read before the change", snaps)
	}
}

// damagedStore is the store whose check found the file damaged.
type damagedStore struct{ *store.Store }

func (damagedStore) Check() error {
	return &store.DamagedError{Path: "vaultdeck.db", Detail: "page 87"}
}

// TestCrawlRefusesADamagedStore (issue 40): before, `access crawl` went on
// writing into a file the journal's reads refused; now it reads nothing.
func TestCrawlRefusesADamagedStore(t *testing.T) {
	h := newHarness(t, -1)
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := h.crawler(damagedStore{st}).Run(context.Background()); !errors.Is(err, store.ErrDamaged) {
		t.Fatalf("a crawl into a damaged store: %v, want store.ErrDamaged", err)
	}
	if users, lists := h.reset(); users+lists != 0 {
		t.Errorf("%d requests were sent", users+lists)
	}
	if snaps, _ := st.AccessSnapshots("work"); len(snaps) != 0 {
		t.Errorf("a snapshot was written into the damaged store: %+v", snaps)
	}
}
