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
