package store

import (
	"errors"
	"testing"
	"time"
)

// A lease dated far in the future (a clock set back while a process held
// it, and its holder's pid since reused so it does not look gone) kept a
// batch or a crawl "being worked on by another vaultdeck process" for as
// long as the clock jumped. No process with a sane clock writes a lease
// more than a lease's length ahead, so such a lease has lapsed; a lease
// of the ordinary length still keeps others out.
func TestALeaseFromTheFutureHasLapsed(t *testing.T) {
	s := openTemp(t)
	now := time.Now()
	_, batches, err := s.RecordRun(UploadRun{Profile: "p", ProjectID: "proj", Mode: "keep", CreatedAt: now}, nil,
		[][]JournalFile{{{Local: "/a", Path: "a", Name: "a", Size: 1}}}, Lease{Owner: "other", Until: now.Add(3 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	me := Lease{Owner: "me", Until: now.Add(2 * time.Minute)}
	if err := s.ClaimBatch(batches[0].ID, me); err != nil {
		t.Errorf("a batch leased 3 h ahead: %v, want it claimed", err)
	}
	if err := s.ClaimBatch(batches[0].ID, Lease{Owner: "third", Until: now.Add(2 * time.Minute)}); !errors.Is(err, ErrLeased) {
		t.Errorf("a batch leased for 2 minutes: %v, want ErrLeased", err)
	}

	if _, err := s.OpenAccessSnapshot("p", "other", now, now.Add(30*time.Hour), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenAccessSnapshot("p", "me", now, now.Add(time.Hour), nil); err != nil {
		t.Errorf("a crawl leased 30 h ahead: %v, want it taken", err)
	}
	if _, err := s.OpenAccessSnapshot("p", "third", now, now.Add(time.Hour), nil); !errors.Is(err, ErrAccessBusy) {
		t.Errorf("a crawl leased for an hour: %v, want ErrAccessBusy", err)
	}
}
