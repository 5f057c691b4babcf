package matters

import (
	"context"
	"errors"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// The job needs no database to be tested: a fake Receipts and a fake
// Service stand in, and an embedded nil interface makes any call the test
// did not expect panic, so each case also shows which persistence calls it
// makes.

// unexpected is Receipts under another name: embedded as Receipts, its
// field would hide the Receipts method.
type unexpected = Receipts

type fakeReceipts struct {
	unexpected // nil: an unexpected call panics
	startErr   error
	checkErr   error
	items      []store.ReceiptItem
	status     string
	note       string
}

func (f *fakeReceipts) Check() error     { return f.checkErr }
func (f *fakeReceipts) Unchanged() error { return nil }
func (f *fakeReceipts) StartReceipt(store.Receipt) (int64, error) {
	return 7, f.startErr
}
func (f *fakeReceipts) AddReceiptItems(_ int64, items []store.ReceiptItem) error {
	f.items = append(f.items, items...)
	return nil
}
func (f *fakeReceipts) FinishReceipt(_ int64, status, note string, unsent []store.ReceiptItem) error {
	f.status, f.note = status, note
	f.items = append(f.items, unsent...)
	return nil
}

// failingService fails every deletion; recorded says how many receipt lines
// the journal held when the request went out.
type failingService struct {
	Service  // nil: listing or upserts would panic
	rec      *fakeReceipts
	calls    int
	recorded []int
}

func (s *failingService) DeleteMatters(context.Context, []api.MatterPair) (*api.MatterDeletion, error) {
	s.calls++
	s.recorded = append(s.recorded, len(s.rec.items))
	return nil, errors.New("connection reset")
}

func TestRunWithFakeReceipts(t *testing.T) {
	pairs := []Pair{{Line: 2, ClientID: "C1", MatterID: "M1"}, {Line: 3, ClientID: "C2", MatterID: "M2"}}

	t.Run("a receipt that cannot be started sends nothing", func(t *testing.T) {
		rec := &fakeReceipts{startErr: errors.New("disk full")}
		svc := &failingService{rec: rec}
		_, _, err := Delete(context.Background(), Deps{Service: svc, Store: rec, Profile: "p"}, Source{Name: "m.csv"}, NewPlan(pairs, 0), Watch{})
		if !IsReceiptError(err) || svc.calls != 0 {
			t.Fatalf("err = %v (receipt error %v), %d requests; want a receipt error and none sent", err, IsReceiptError(err), svc.calls)
		}
	})

	t.Run("lines are on the receipt before their request goes out", func(t *testing.T) {
		rec := &fakeReceipts{}
		svc := &failingService{rec: rec}
		id, rep, err := Delete(context.Background(), Deps{Service: svc, Store: rec, Profile: "p"}, Source{Name: "m.csv"}, NewPlan(pairs, 0), Watch{})
		if err != nil || id != 7 || rep == nil {
			t.Fatalf("Delete = %d, %v, %v", id, rep, err)
		}
		if svc.calls != 1 || svc.recorded[0] != len(pairs) {
			t.Fatalf("requests %d, receipt lines when sent %v; want 1 request sent after %d lines", svc.calls, svc.recorded, len(pairs))
		}
		if rec.status != store.ReceiptStopped || rec.note == "" {
			t.Fatalf("receipt finished %q (%q); want stopped with the cause", rec.status, rec.note)
		}
	})

	t.Run("a damaged store is not read as nothing to restore", func(t *testing.T) {
		rec := &fakeReceipts{checkErr: errors.New("database disk image is malformed")}
		if _, err := PlanRestore(rec, 7); err == nil {
			t.Fatal("PlanRestore on a damaged store returned no error")
		}
	})
}
