package matterrun

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
)

func TestStatusOfAnInterruptedRun(t *testing.T) {
	r := store.Receipt{Status: store.ReceiptRunning, Pairs: 30000, Counts: map[string]int{"deleted": 9000, "already_absent": 1000}}
	if got := Status(r); got != "running or interrupted: 10000 of 30000 pairs recorded (re-running the file is safe)" {
		t.Fatal(got)
	}
	if got := Status(store.Receipt{Status: store.ReceiptComplete}); got != "complete" {
		t.Fatal(got)
	}
}
