package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func tableOf(in []TableRows, name string) TableRows {
	for _, t := range in {
		if t.Name == name {
			return t
		}
	}
	return TableRows{Name: name, Rows: -1}
}

func auditCount(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM audit_entries`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestInspectSaysWhatIsReadable: a damaged index costs no row (the table is
// read past it); a damaged leaf of the table costs the rows on it only, the
// rows after it are read.
func TestInspectSaysWhatIsReadable(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	mirrored(t, path, 3000)
	in, err := Inspect(context.Background(), path)
	if err != nil || !in.Whole() || in.Version != len(migrations) {
		t.Fatalf("a whole file: %+v, %v", in, err)
	}
	if got := tableOf(in.Tables, "audit_entries"); got.Rows != 3000 || got.Gaps != 0 {
		t.Fatalf("a whole file's audit_entries: %+v, want 3000 rows", got)
	}
	damage(t, path, "audit_entries_user_ip", 2)
	in, err = Inspect(context.Background(), path)
	if err != nil || in.Whole() {
		t.Fatalf("a damaged index: whole %v, %v: want problems", in.Whole(), err)
	}
	if got := tableOf(in.Tables, "audit_entries"); got.Rows != 3000 {
		t.Errorf("with an index damaged, audit_entries gives %+v, want all 3000 rows", got)
	}
	damage(t, path, "audit_entries", 5)
	in, _ = Inspect(context.Background(), path)
	got := tableOf(in.Tables, "audit_entries")
	if got.Rows >= 3000 || got.Rows < 2900 || got.Gaps != 1 {
		t.Errorf("with a leaf of the table damaged: %+v, want the rows of one page lost (about 15), the rest read past it", got)
	}
	if tableOf(in.Tables, "profiles").Rows != 1 {
		t.Errorf("profiles: %+v, want the one", tableOf(in.Tables, "profiles"))
	}
}

// TestRecoverCopiesWhatCanBeReadAndKeepsTheDamagedFile: the fresh file is
// whole and holds every readable row, the damaged one (and its log) is kept
// beside it under the name Recover gives, and the store opens and writes.
func TestRecoverCopiesWhatCanBeReadAndKeepsTheDamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	mirrored(t, path, 3000)
	damage(t, path, "audit_entries", 5)
	damage(t, path, "audit_entries_user_ip", 2)
	before, _ := Inspect(context.Background(), path)
	readable := tableOf(before.Tables, "audit_entries").Rows
	now := time.Date(2026, 12, 2, 2, 30, 0, 0, time.UTC)
	rec, err := Recover(context.Background(), path, "", now)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Aside != path+".damaged-20261202T023000Z" || rec.To != path {
		t.Errorf("recovery %+v: want the fresh file at the path and the damaged one aside", rec)
	}
	if in, err := Inspect(context.Background(), rec.Aside); err != nil || in.Whole() {
		t.Errorf("the file moved aside is not the damaged one: %v, whole %v", err, in.Whole())
	}
	if _, err := os.Stat(path + ".recovering"); !os.IsNotExist(err) {
		t.Errorf("the working copy is left: %v", err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatalf("the recovered file: %v", err)
	}
	if n := auditCount(t, s); int64(n) != readable || tableOf(rec.Tables, "audit_entries").Rows != readable {
		t.Errorf("the recovered file holds %d audit entries (recovery says %+v), want the %d readable", n, tableOf(rec.Tables, "audit_entries"), readable)
	}
	if _, err := s.Profile("work"); err != nil {
		t.Errorf("the profile: %v", err)
	}
	if err := s.SaveProfile(Profile{Name: "after", Region: "us"}); err != nil {
		t.Errorf("a write into the recovered file: %v", err)
	}
}

// TestRecoverToAFileLeavesTheStore: with a destination, the store's file is
// left where it is, the copy written there; an existing destination is
// never written over.
func TestRecoverToAFileLeavesTheStore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	mirrored(t, path, 600)
	was, _ := os.Stat(path)
	to := filepath.Join(dir, "copy.db")
	if _, err := Recover(context.Background(), path, to, time.Now()); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.Stat(path); !os.SameFile(was, now) {
		t.Error("the store's file was replaced by a recovery to another file")
	}
	c, err := Open(to)
	if err != nil {
		t.Fatal(err)
	}
	n := auditCount(t, c)
	c.Close()
	if n != 600 {
		t.Errorf("the copy holds %d audit entries, want 600", n)
	}
	if _, err := Recover(context.Background(), path, to, time.Now()); err == nil {
		t.Error("a recovery over an existing file went ahead")
	}
}

// TestInspectFindsADamagedLog (issue 40's neighbour: a WAL-only damage): a
// frame of the log damaged under commits that follow it reads as a whole
// file without those commits; Inspect says the log is damaged.
func TestInspectFindsADamagedLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 5 { // five commits in the log, none folded yet
		if err := s.SaveProfile(Profile{Name: fmt.Sprintf("p%d", i), Region: "us"}); err != nil {
			t.Fatal(err)
		}
	}
	// The process is killed with its commits in the log: the file and its
	// log are what is left (a copy of them, without the index).
	dir := t.TempDir()
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, FileName)+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path = filepath.Join(dir, FileName)
	if in, err := Inspect(context.Background(), path); err != nil || !in.Whole() {
		t.Fatalf("a whole log: %v %v", in.Problems, err)
	}
	f, err := os.OpenFile(path+"-wal", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	// the page of the log's first frame
	if _, err := f.WriteAt([]byte("damaged by a stray write"), 32+24+100); err != nil {
		t.Fatal(err)
	}
	f.Close()
	os.Remove(path + "-shm")
	in, err := Inspect(context.Background(), path)
	if err != nil || in.Whole() || !strings.Contains(strings.Join(in.Problems, " "), "write-ahead log") {
		t.Errorf("a damaged log: whole %v, %v, %v", in.Whole(), in.Problems, err)
	}
}
