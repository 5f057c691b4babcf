package store

import (
	"errors"
	"testing"
)

func TestReceiptRoundTrip(t *testing.T) {
	s := openTemp(t)
	id, err := s.StartReceipt(Receipt{Action: "delete", Profile: "p", Endpoint: "https://api", FileName: "m.csv", FileSHA256: "ab", Pairs: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddReceiptItems(id, []ReceiptItem{{Line: 4, ClientID: " ", MatterID: "M", Result: "error", Code: "invalid_client_id"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddReceiptItems(id, []ReceiptItem{{Line: 2, ClientID: "C", MatterID: "M", Result: "deleted", Request: 1}}); err != nil {
		t.Fatal(err)
	}
	// A request's items go in one transaction: a failing row leaves none.
	if err := s.AddReceiptItems(id, []ReceiptItem{{Line: 3, Result: "deleted"}, {Line: 2, Result: "deleted"}}); err == nil {
		t.Fatal("a repeated line was accepted")
	}
	if err := s.FinishReceipt(id, ReceiptCanceled, "canceled", []ReceiptItem{{Line: 3, ClientID: "C", MatterID: "N", Result: "not_sent"}}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Receipt(id)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != ReceiptCanceled || r.FileName != "m.csv" || r.Counts["deleted"] != 1 || r.Counts["error"] != 1 || r.Counts["not_sent"] != 1 || r.FinishedAt.IsZero() {
		t.Fatalf("%+v", r)
	}
	var lines []int
	s.ReceiptItems(id, "", func(it ReceiptItem) error { lines = append(lines, it.Line); return nil })
	if len(lines) != 3 || lines[0] != 2 || lines[2] != 4 {
		t.Fatalf("lines %v", lines)
	}
	var del []ReceiptItem
	s.ReceiptItems(id, "deleted", func(it ReceiptItem) error { del = append(del, it); return nil })
	if len(del) != 1 || del[0].ClientID != "C" || del[0].Request != 1 {
		t.Fatalf("%+v", del)
	}
	codes, err := s.ReceiptCodes(id)
	if err != nil || len(codes) != 1 || codes["invalid_client_id"] != 1 {
		t.Fatalf("codes %v %v", codes, err)
	}
	var errs []int
	s.ReceiptItemsWhere(id, "error", "invalid_client_id", func(it ReceiptItem) error { errs = append(errs, it.Line); return nil })
	if len(errs) != 1 || errs[0] != 4 {
		t.Fatalf("filtered %v", errs)
	}
	rid, err := s.StartReceipt(Receipt{Action: "restore", RestoreOf: id, Profile: "p", Endpoint: "https://api", Pairs: 1})
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.Receipts()
	if err != nil || len(all) != 2 || all[0].ID != rid || all[0].RestoreOf != id || all[0].Status != ReceiptRunning {
		t.Fatalf("%+v %v", all, err)
	}
	if _, err := s.Receipt(99); !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
}

// A deletion's receipt carries what its restores did since: lines back
// (once each, however many restores), lines in flight, lines not back.
func TestReceiptCarriesItsRestores(t *testing.T) {
	s := openTemp(t)
	id, err := s.StartReceipt(Receipt{Action: "delete", Profile: "p", Endpoint: "e", Pairs: 4})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.AddReceiptItems(id, []ReceiptItem{{Line: 2, Result: "deleted"}, {Line: 3, Result: "deleted"},
		{Line: 4, Result: "deleted"}, {Line: 5, Result: "already_absent"}}))
	if r, _ := s.Receipt(id); len(r.Restored.By) != 0 || r.Restored.Lines != 0 {
		t.Fatalf("never restored: %+v", r.Restored)
	}
	a, err := s.StartReceipt(Receipt{Action: "restore", RestoreOf: id, Profile: "p", Endpoint: "e", Pairs: 2})
	must(err)
	must(s.AddReceiptItems(a, []ReceiptItem{{Line: 2, Result: "restored"}, {Line: 3, Result: "in_flight"}}))
	r, err := s.Receipt(id)
	must(err)
	if got := r.Restored; len(got.By) != 1 || got.By[0] != a || got.Lines != 1 || got.InFlight != 1 || got.Remaining != 1 {
		t.Errorf("after a partial restore: %+v, want by [%d], 1 back, 1 in flight, 1 not back", got, a)
	}
	b, err := s.StartReceipt(Receipt{Action: "restore", RestoreOf: id, Profile: "p", Endpoint: "e", Pairs: 3})
	must(err)
	must(s.AddReceiptItems(b, []ReceiptItem{{Line: 2, Result: "already_restored"}, {Line: 3, Result: "unchanged"}, {Line: 4, Result: "restored"}}))
	all, err := s.Receipts()
	must(err)
	for _, r := range all {
		if r.ID == id {
			if got := r.Restored; len(got.By) != 2 || got.Lines != 3 || got.InFlight != 0 || got.Remaining != 0 {
				t.Errorf("after the second restore: %+v, want 2 restores, 3 lines back", got)
			}
		} else if len(r.Restored.By) != 0 {
			t.Errorf("restore %d carries restores: %+v", r.ID, r.Restored)
		}
	}
}

// A later deletion of pairs a restore brought back is counted on the
// first deletion's receipt (Again), trimmed as the service trims; an
// earlier deletion, or one that found them absent, is not.
func TestRestoredThenDeletedAgain(t *testing.T) {
	s := openTemp(t)
	del := func(items ...ReceiptItem) int64 {
		t.Helper()
		id, err := s.StartReceipt(Receipt{Action: "delete", Profile: "p", Endpoint: "e", Pairs: len(items)})
		if err == nil {
			err = s.AddReceiptItems(id, items)
		}
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	early := del(ReceiptItem{Line: 2, ClientID: "C", MatterID: "M1", Result: "deleted"})
	first := del(ReceiptItem{Line: 2, ClientID: "C", MatterID: "M1", Result: "deleted"}, ReceiptItem{Line: 3, ClientID: "C", MatterID: "M2", Result: "deleted"})
	rid, err := s.StartReceipt(Receipt{Action: "restore", RestoreOf: first, Profile: "p", Endpoint: "e", Pairs: 2})
	if err == nil {
		err = s.AddReceiptItems(rid, []ReceiptItem{{Line: 2, ClientID: "C", MatterID: "M1", Result: "restored"}, {Line: 3, ClientID: "C", MatterID: "M2", Result: "restored"}})
	}
	if err != nil {
		t.Fatal(err)
	}
	// " C\r" and "M1\u00a0" are C and M1 to the service (Go's TrimSpace, as
	// the job keys its pairs), not only " C ".
	again := del(ReceiptItem{Line: 7, ClientID: " C\r", MatterID: "M1\u00a0", Result: "deleted"}, ReceiptItem{Line: 8, ClientID: "C", MatterID: "M2", Result: "already_absent"})
	r, err := s.Receipt(first)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Restored; got.Lines != 2 || got.Again != 1 || len(got.AgainBy) != 1 || got.AgainBy[0] != again {
		t.Errorf("restored %+v, want 2 back, 1 deleted again by %d (not by %d, which came first)", got, again, early)
	}
}
