package store

import (
	"strconv"
	"testing"
)

// BenchmarkReceiptRequest writes the receipt items of one full request
// (10,000 pairs) in its transaction: 100 of these record a 1,000,000-pair run.
func BenchmarkReceiptRequest(b *testing.B) {
	s, err := Open(b.TempDir() + "/vaultdeck.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	id, err := s.StartReceipt(Receipt{Action: "delete", Profile: "p", Endpoint: "https://api", Pairs: 10_000})
	if err != nil {
		b.Fatal(err)
	}
	line := 0
	for b.Loop() {
		items := make([]ReceiptItem, 10_000)
		for i := range items {
			line++
			items[i] = ReceiptItem{Line: line, ClientID: "10" + strconv.Itoa(i%500), MatterID: "M-" + strconv.Itoa(line), Result: "deleted", Request: 1}
		}
		if err := s.AddReceiptItems(id, items); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReceiptAfterRestoreAndRedelete reads a 5,000-pair deletion's
// receipt after its restore and a later deletion of the same pairs: what
// `matters receipt`, `matters receipts` and the console's receipt view pay
// to say which pairs were deleted again. The pairs of the restore were
// joined to every deleted line before their own line was known, so the
// read grew with the square of the receipt (36.7 s at 5,000 pairs).
func BenchmarkReceiptAfterRestoreAndRedelete(b *testing.B) {
	const n = 5_000
	s, err := Open(b.TempDir() + "/vaultdeck.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	record := func(r Receipt, result string) int64 {
		id, err := s.StartReceipt(r)
		if err != nil {
			b.Fatal(err)
		}
		items := make([]ReceiptItem, n)
		for i := range items {
			items[i] = ReceiptItem{Line: i + 1, ClientID: "10" + strconv.Itoa(i%500), MatterID: "M-" + strconv.Itoa(i), Result: result, Request: 1}
		}
		if err := s.AddReceiptItems(id, items); err != nil {
			b.Fatal(err)
		}
		if err := s.FinishReceipt(id, "complete", "", nil); err != nil {
			b.Fatal(err)
		}
		return id
	}
	first := record(Receipt{Action: "delete", Profile: "p", Endpoint: "https://api", Pairs: n}, "deleted")
	record(Receipt{Action: "restore", RestoreOf: first, Profile: "p", Endpoint: "https://api", Pairs: n}, "restored")
	record(Receipt{Action: "delete", Profile: "p", Endpoint: "https://api", Pairs: n}, "deleted")
	for b.Loop() {
		r, err := s.Receipt(first)
		if err != nil {
			b.Fatal(err)
		}
		if r.Restored.Lines != n || r.Restored.Again != n {
			b.Fatalf("restored %d, deleted again %d; want %d and %d", r.Restored.Lines, r.Restored.Again, n, n)
		}
	}
}
