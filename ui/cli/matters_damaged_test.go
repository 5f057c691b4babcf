package cli

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A damaged receipts database is said, never read as empty or partial:
// receipts, receipt, restore and a new delete all stop with exit 1 and a line that says
// what to do with the file, before any request.
func TestDamagedReceiptsAreSaid(t *testing.T) {
	e := newMattersEnv(t)
	var b strings.Builder
	b.WriteString("client_id,matter_id\n")
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&b, "NX%05d,A-LONG-MATTER-NUMBER-%05d\n", i, i)
	}
	f := e.file(t, "m.csv", b.String())
	if r := e.vd("", "matters", "delete", f, "--yes"); r.code != 0 {
		t.Fatalf("delete: %+v", r)
	}
	dbPath := filepath.Join(e.dir, "vaultdeck.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	fh, err := os.OpenFile(dbPath, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := fh.Stat()
	junk := make([]byte, 4096*3)
	for i := range junk {
		junk[i] = byte(i * 7)
	}
	if _, err := fh.WriteAt(junk, info.Size()/2&^4095); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	before := e.requests.Load()
	for _, args := range [][]string{
		{"matters", "receipts"}, {"matters", "receipt", "1"}, {"matters", "receipt", "1", "--export", "csv"},
		{"matters", "restore", "--receipt", "1", "--dry-run"}, {"matters", "restore", "--receipt", "1", "--yes"},
		// A new deletion would write its receipt into the damaged file: it
		// must not send what it could not record.
		{"matters", "delete", f, "--yes"},
	} {
		r := e.vd("", args...)
		if r.code != 1 || !strings.Contains(r.stderr, "damaged") || !strings.Contains(r.stderr, "move the file aside") {
			t.Errorf("%v: exit %d\nstdout %.300s\nstderr %s", args, r.code, r.stdout, r.stderr)
		}
	}
	if n := e.requests.Load() - before; n != 0 {
		t.Errorf("%d requests sent from a damaged receipt", n)
	}
}
