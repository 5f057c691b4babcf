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
