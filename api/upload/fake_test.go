package upload

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// The job needs no database to be tested: a fake Journal and a fake Backend
// stand in, and an embedded nil interface makes any call the test did not
// expect panic, so each case also shows which persistence calls it makes.

type fakeJournal struct {
	Journal   // nil: an unexpected call panics
	checkErr  error
	recordErr error
	unproven  []store.JournalFile
	recorded  int
}

func (f *fakeJournal) CheckJournal() error { return f.checkErr }
func (f *fakeJournal) Unchanged() error    { return nil }
func (f *fakeJournal) UnprovenFiles(string) ([]store.JournalFile, error) {
	return f.unproven, nil
}
func (f *fakeJournal) UnfinishedBatches(string) ([]store.JournalBatch, error) { return nil, nil }
func (f *fakeJournal) RecordRun(store.UploadRun, []store.JournalFile, [][]store.JournalFile, store.Lease) (int64, []store.JournalBatch, error) {
	f.recorded++
	return 0, nil, f.recordErr
}

type countingBackend struct {
	Backend // nil: listing or status calls would panic
	sent    int
}

func (b *countingBackend) UploadBatch(context.Context, string, []api.UploadFile, api.DuplicateMode, func(int64)) (*api.UploadResult, error) {
	b.sent++
	return nil, errors.New("unexpected upload")
}

func TestJobWithFakeJournal(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }

	t.Run("a plan the journal cannot record sends nothing", func(t *testing.T) {
		j := &fakeJournal{recordErr: errors.New("disk full")}
		be := &countingBackend{}
		r := &Runner{API: be, Store: j, Profile: "p", Now: now}
		plan := Plan{Files: []File{{Local: "/x/a.pdf", Path: "a.pdf", Name: "a.pdf", Size: 3}}}
		if _, err := r.Upload(context.Background(), "proj", plan, api.DuplicateMode("keep")); err == nil || err.Error() != "disk full" {
			t.Fatalf("Upload err = %v, want the journal's error", err)
		}
		if j.recorded != 1 || be.sent != 0 {
			t.Fatalf("recorded %d runs, sent %d requests; want 1 and 0", j.recorded, be.sent)
		}
	})

	t.Run("a damaged journal is not read as nothing to resume", func(t *testing.T) {
		j := &fakeJournal{checkErr: errors.New("journal damaged")}
		r := &Runner{API: &countingBackend{}, Store: j, Profile: "p", Now: now}
		if _, err := r.Resume(context.Background()); err == nil {
			t.Fatal("Resume on a damaged journal returned no error")
		}
	})

	t.Run("files left unproven earlier keep a resume partial", func(t *testing.T) {
		j := &fakeJournal{unproven: []store.JournalFile{{Local: "/x/a.pdf", Name: "a.pdf"}}}
		be := &countingBackend{}
		r := &Runner{API: be, Store: j, Profile: "p", Now: now}
		out, err := r.Resume(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Unproven) != 1 || !out.Partial() || be.sent != 0 {
			t.Fatalf("unproven %d, partial %v, sent %d; want 1, true, 0", len(out.Unproven), out.Partial(), be.sent)
		}
	})
}
