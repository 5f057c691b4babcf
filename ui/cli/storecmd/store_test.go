package storecmd

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// damaged makes a store of 2,000 audit entries and writes 4 KB of random
// bytes over a leaf page of its audit table (the rows on it are lost) and
// one of an index (no row lost: the table is read past it).
func damaged(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), store.FileName)
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	prev := ""
	for start := 0; start < 2000; start += 500 {
		p := store.AuditMirrorPage{Log: "log", Prev: prev, At: time.Unix(1e9, 0)}
		for i := start; i < start+500; i++ {
			p.Entries = append(p.Entries, store.AuditEntry{ID: fmt.Sprintf("e%06d", i), User: fmt.Sprintf("u%d@example.com", i%53),
				IP: fmt.Sprintf("10.0.0.%d", i%199), Type: "api:audit_log_fetch", Raw: []byte(`{"padding":"` + strings.Repeat("x", 200) + `"}`)})
		}
		p.Cursor = p.Entries[len(p.Entries)-1].ID
		if err := st.SaveAuditPage(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		prev = p.Cursor
	}
	st.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var pages []int64
	for _, name := range []string{"audit_entries", "audit_entries_user_ip"} {
		var pg int64
		if err := db.QueryRow(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 3`, name).Scan(&pg); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, pg)
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := rand.New(rand.NewPCG(4, 40))
	junk := make([]byte, 4096)
	for _, pg := range pages {
		for i := range junk {
			junk[i] = byte(r.Uint32())
		}
		if _, err := f.WriteAt(junk, (pg-1)*4096); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func run(t *testing.T, runX func(context.Context, *Options) int, path, to string, format printer.Format) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	o := &Options{IO: printer.New(nil, &out, &errb), Path: func() (string, error) { return path, nil }, To: to,
		Now: func() time.Time { return time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC) }}
	o.IO.SetFormat(format)
	o.IO.Start(context.Background(), "store")
	code := o.IO.Finish(runX(context.Background(), o))
	return code, out.String(), errb.String()
}

// TestCheckThenRecoverADamagedStore: check says damaged (exit 1), names the
// problem and how many rows the audit table still gives; recover copies
// them (exit 3: a page's rows are lost), keeps the damaged file aside, and a
// check after says whole (exit 0).
func TestCheckThenRecoverADamagedStore(t *testing.T) {
	path := damaged(t)
	code, out, errs := run(t, RunCheck, path, "", printer.Table)
	if code != printer.ExitError || !strings.Contains(out, "damaged") || !strings.Contains(errs, "vaultdeck store recover") {
		t.Fatalf("check of a damaged file: exit %d\n%s\n%s", code, out, errs)
	}
	in, err := store.Inspect(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var readable int64
	for _, tr := range in.Tables {
		if tr.Name == "audit_entries" {
			readable = tr.Rows
		}
	}
	if readable == 0 || readable >= 2000 || !strings.Contains(out, fmt.Sprint(readable)) {
		t.Fatalf("the check's rows: %d readable, the output:\n%s", readable, out)
	}
	code, out, errs = run(t, RunRecover, path, "", printer.Table)
	aside := path + ".damaged-20261202T030000Z"
	if code != printer.ExitPartial || !strings.Contains(out, aside) || !strings.Contains(errs, "audit_entries") {
		t.Fatalf("recover: exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(aside); err != nil {
		t.Errorf("the damaged file is not kept: %v", err)
	}
	code, out, errs = run(t, RunCheck, path, "", printer.JSON)
	if code != printer.ExitOK || !strings.Contains(out, `"whole": true`) {
		t.Fatalf("check after the recovery: exit %d\n%s\n%s", code, out, errs)
	}
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n := 0
	if err := st.AuditEntries(context.Background(), "log", store.AuditFilter{}, func(store.AuditEntry) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if int64(n) != readable {
		t.Errorf("the recovered mirror holds %d entries, want the %d readable", n, readable)
	}
}
