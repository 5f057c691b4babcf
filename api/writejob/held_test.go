package writejob_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
)

// blockingKind holds its first request until released: a process whose
// request is out and not yet answered.
type blockingKind struct {
	*setKind
	out, release chan struct{}
	first        bool
}

func (k *blockingKind) Send(ctx context.Context, items []writejob.Item) ([]writejob.Answer, error) {
	if !k.first {
		k.first = true
		close(k.out)
		<-k.release
	}
	return k.setKind.Send(ctx, items)
}

// TestASecondResumeOfAJobInFlightSendsNothing: while one process's request
// of a job is out, a second process resuming the job (two `uploads undo
// RUN` at once) must not check that request, find it not applied yet and
// send it again: it is refused, naming the holder, and sends nothing.
func TestASecondResumeOfAJobInFlightSendsNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), store.FileName)
	a, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	w := &world{}
	k, p := w.Fresh(t)
	bk := &blockingKind{setKind: k.(*setKind), out: make(chan struct{}), release: make(chan struct{})}
	id, err := writejob.Start(deps(a), p)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *writejob.Report)
	go func() { done <- writejob.Run(context.Background(), deps(a), bk, id) }()
	<-bk.out
	rep := writejob.Resume(context.Background(), deps(b), w.k, id)
	sendsByB := w.k.sends
	close(bk.release)
	first := <-done
	var held *store.JobHeldError
	if !errors.As(rep.Err, &held) || !strings.Contains(rep.Err.Error(), "another vaultdeck process (process ") {
		t.Fatalf("the second resume: %v, want refused naming the process that holds the job", rep.Err)
	}
	if sendsByB != 0 {
		t.Fatalf("the second resume sent %d requests while the first's was out", sendsByB)
	}
	if first.Err != nil || !first.Settled() || w.k.sends != 5 {
		t.Fatalf("the first run: %v settled %v, %d requests, want 5", first.Err, first.Settled(), w.k.sends)
	}
	// released: a resume now holds it (nothing left to send)
	if rep := writejob.Resume(context.Background(), deps(b), w.k, id); rep.Err != nil || w.k.sends != 5 {
		t.Fatalf("a resume after the first ended: %v, %d requests", rep.Err, w.k.sends)
	}
}

// TestAJobThatCannotBeHeldSendsNothing: a hold that cannot be taken (its
// lock folder cannot be made) stops the run before any request.
func TestAJobThatCannotBeHeldSendsNothing(t *testing.T) {
	st := openStore(t)
	if err := os.WriteFile(st.Path()+"-locks", []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := &world{}
	k, p := w.Fresh(t)
	id, err := writejob.Start(deps(st), p)
	if err != nil {
		t.Fatal(err)
	}
	rep := writejob.Run(context.Background(), deps(st), k, id)
	if rep.Err == nil || !strings.Contains(rep.Err.Error(), "could not be held") || w.k.sends != 0 {
		t.Fatalf("%v, %d requests", rep.Err, w.k.sends)
	}
}
