package mattersview

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// A receipt that cannot take a request's answer (a full disk) is the
// task's failure, saying which request and lines are not on the receipt
// and what the service answered for them; never a plain success.
func TestReceiptWriteFailureIsTheTaskOutcome(t *testing.T) {
	h := newHarness(t, false)
	ms := h.live(2)
	db, err := sql.Open("sqlite", filepath.Join(h.dir, "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TRIGGER disk_full BEFORE UPDATE ON matter_receipt_items WHEN OLD.request = 1
		BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	h.writeFile("m.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	h.press("n")
	h.burst(filepath.Join(h.dir, "m.csv"))
	h.press("enter", "X")
	h.typeText("2")
	h.press("enter")
	done := h.runTasks()
	if len(done) != 1 || done[0].Err == nil {
		t.Fatalf("task: %+v", done)
	}
	for _, want := range []string{"receipt 1 is incomplete", "request 1 (lines 2-3)", "deleted 2", "disk is full"} {
		if !strings.Contains(done[0].Err.Error(), want) {
			t.Errorf("outcome lacks %q: %v", want, done[0].Err)
		}
	}
}
