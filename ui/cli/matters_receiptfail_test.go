package cli

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// Every receipt write failure is exit 3, in the restore too, and a receipt
// that cannot even be started sends nothing and says so.
func TestReceiptWriteFailuresExit3(t *testing.T) {
	e := newMattersEnv(t)
	ms := e.live(2)
	p := e.file(t, "m.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	if r := e.vd("", "matters", "delete", p, "--yes"); r.code != 0 {
		t.Fatalf("delete: %+v", r)
	}
	trigger := func(sqlText string) {
		db, err := sql.Open("sqlite", filepath.Join(e.dir, "vaultdeck.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(sqlText); err != nil {
			t.Fatal(err)
		}
	}
	// The restore's answer cannot be recorded.
	trigger(`CREATE TRIGGER full_items BEFORE UPDATE ON matter_receipt_items WHEN OLD.receipt_id = 2
		BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`)
	r := e.vd("", "matters", "restore", "--receipt", "1", "--yes")
	if r.code != ExitPartial || !strings.Contains(r.stderr, "receipt 2 is incomplete") || !strings.Contains(r.stderr, "restored 2") {
		t.Errorf("restore with an unrecordable answer: exit %d\n%s", r.code, r.stderr)
	}
	// No receipt can be started: nothing is sent, exit 3.
	trigger(`CREATE TRIGGER full_receipts BEFORE INSERT ON matter_receipts
		BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`)
	before := e.requests.Load()
	r = e.vd("", "matters", "delete", p, "--yes")
	if r.code != ExitPartial || !strings.Contains(r.stderr, "nothing was sent") {
		t.Errorf("delete without a receipt: exit %d\n%s", r.code, r.stderr)
	}
	if n := e.requests.Load() - before; n != 0 {
		t.Errorf("%d requests sent without a receipt", n)
	}
}
