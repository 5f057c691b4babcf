package matters

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
)

// What a receipt says now, for each standing of a deletion: never "safe",
// and once anything is back, that a re-run deletes it again.
func TestStatusAndRerunSayWhatIsTrueNow(t *testing.T) {
	del := func(status string, rs store.Restored) store.Receipt {
		return store.Receipt{ID: 1, Action: "delete", FileName: "m.csv", Pairs: 5, Status: status,
			Counts: map[string]int{"deleted": 3}, Restored: rs}
	}
	for _, c := range []struct {
		r             store.Receipt
		status, rerun string
	}{
		{del(store.ReceiptComplete, store.Restored{}), "complete", "would delete only those of its pairs re-created since"},
		{del(store.ReceiptRunning, store.Restored{}), "running or interrupted: 3 of 5 pairs recorded", "would delete the pairs this run never sent or never recorded"},
		{del(store.ReceiptComplete, store.Restored{By: []int64{2}, Lines: 3}), "complete; restored by receipt 2 (3 pairs)",
			"would delete again the 3 matters receipt 2 restored; also any other pair"},
		{del(store.ReceiptStopped, store.Restored{By: []int64{2, 4}, Lines: 1, InFlight: 1, Remaining: 1}),
			"stopped; partly restored by receipts 2, 4 (1 pair): 1 pair in flight, perhaps back, 1 pair it deleted not restored",
			"would delete again the 1 matter receipts 2, 4 restored and the 1 pair whose restore is in flight, if it went through; also the pairs this run never recorded"},
		{del(store.ReceiptComplete, store.Restored{By: []int64{2}, Remaining: 3}), "complete; receipt 2 restored none of its pairs",
			"would delete only those of its pairs re-created since"},
		{del(store.ReceiptComplete, store.Restored{By: []int64{2}, Lines: 3, Again: 3, AgainBy: []int64{3}}),
			"complete; restored by receipt 2 (3 pairs); deleted again by receipt 3 (3 pairs)", "would delete only those of its pairs re-created since"},
		{del(store.ReceiptComplete, store.Restored{By: []int64{2}, Lines: 3, Again: 1, AgainBy: []int64{4}}),
			"complete; restored by receipt 2 (3 pairs); deleted again by receipt 4 (1 pair)", "would delete again the 2 matters receipt 2 restored"},
	} {
		if got := Status(c.r); got != c.status {
			t.Errorf("Status = %q, want %q", got, c.status)
		}
		if got := Rerun(c.r); !strings.Contains(got, c.rerun) || strings.Contains(got, "safe") {
			t.Errorf("Rerun = %q, want it to hold %q", got, c.rerun)
		}
	}
	if got := Rerun(store.Receipt{Action: "restore", RestoreOf: 1}); got != "" {
		t.Errorf("a restore's Rerun = %q", got)
	}
}
