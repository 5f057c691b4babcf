package mattersview

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
)

// U asks for the count a restore may send, as the command line does: the
// pairs answered deleted and those sent without a recorded answer, the
// lost answers (outcome_unknown) included. It counted "deleted" and
// "in_flight" only, so a receipt with a lost answer asked for one less
// than it would check and send.
func TestRestoreAsksForWhatItMaySend(t *testing.T) {
	h := newHarness(t, false)
	id, err := h.st.StartReceipt(store.Receipt{Action: "delete", Profile: "work", Endpoint: "e", FileName: "m.csv", Pairs: 2})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(err)
	must(h.st.AddReceiptItems(id, []store.ReceiptItem{{Line: 2, ClientID: "C", MatterID: "M1", Result: "deleted", Request: 1}}))
	must(h.st.AddReceiptItems(id, []store.ReceiptItem{{Line: 3, ClientID: "C", MatterID: "M2", Result: "in_flight", Request: 2}}))
	must(h.st.AddReceiptItems(id, []store.ReceiptItem{{Line: 3, ClientID: "C", MatterID: "M2", Result: "error", Code: "outcome_unknown", Request: 2}}))
	must(h.st.FinishReceipt(id, store.ReceiptStopped, "connection reset", nil))
	h.press("r", "enter", "U")
	if v := h.view(); !strings.Contains(v, "Type 2") {
		t.Errorf("the restore's confirmation:\n%s", v)
	}
}
