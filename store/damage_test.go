package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mirrored opens a store at path holding a profile and n audit entries (many
// pages of the table and of each index), folded into the file and closed.
func mirrored(t *testing.T, path string, n int) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SaveProfile(Profile{Name: "work", Region: "us"}); err != nil {
		t.Fatal(err)
	}
	prev := ""
	for start := 0; start < n; start += 500 {
		p := AuditMirrorPage{Log: "log", Prev: prev, At: time.Unix(1e9, 0)}
		for i := start; i < min(start+500, n); i++ {
			p.Entries = append(p.Entries, AuditEntry{ID: fmt.Sprintf("e%06d", i), Time: time.Unix(int64(1e9+i), 0).UTC(),
				Type: "api:audit_log_fetch", User: fmt.Sprintf("u%03d@example.com", i%97), IP: fmt.Sprintf("10.0.%d.%d", i%7, i%251),
				Raw: []byte(fmt.Sprintf(`{"id":"e%06d","padding":"%s"}`, i, strings.Repeat("x", 200)))})
		}
		p.Cursor = p.Entries[len(p.Entries)-1].ID
		if err := s.SaveAuditPage(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		prev = p.Cursor
	}
	if _, err := s.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
}

// damage writes 4 KB of (seeded) random bytes over the k-th leaf page of
// the table or index name, as a failing disk or a stray write would, and
// returns the page's number.
func damage(t *testing.T, path, name string, k int) int {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var page int
	err = s.db.QueryRow(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET ?`, name, k).Scan(&page)
	s.Close()
	if err != nil {
		t.Fatalf("no leaf page %d of %s: %v", k, name, err)
	}
	junk := make([]byte, 4096)
	r := rand.New(rand.NewPCG(uint64(page), 40))
	for i := range junk {
		junk[i] = byte(r.Uint32())
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(junk, int64(page-1)*4096); err != nil {
		t.Fatal(err)
	}
	return page
}

// TestADamagedFileIsRefusedForWrites (issue 40): random bytes over an index
// page leave a write that misses the page succeeding; once Check has found
// the damage, no write of the Store is made, and the error names the file
// and the commands that check and recover it.
func TestADamagedFileIsRefusedForWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	mirrored(t, path, 3000)
	damage(t, path, "audit_entries_user_ip", 2)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Check()
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("Check: %v, want ErrDamaged", err)
	}
	err = s.SaveProfile(Profile{Name: "after", Region: "us"})
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("a write after the damage was found: %v, want it refused with ErrDamaged", err)
	}
	for _, want := range []string{path, "vaultdeck store check", "vaultdeck store recover"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not name %q: %v", want, err)
		}
	}
	if err := s.PutCache("work", "k", []byte("v"), time.Now()); !errors.Is(err, ErrDamaged) {
		t.Errorf("a single statement after the damage was found: %v, want it refused", err)
	}
}

// TestAWriteThatMeetsTheDamageRefusesTheRest: with no check first, a write
// whose statement reads the damaged page fails (SQLite's own SQLITE_CORRUPT),
// and every later write of the Store, even one missing the page, is refused.
func TestAWriteThatMeetsTheDamageRefusesTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	mirrored(t, path, 3000)
	damage(t, path, "audit_entries_user_ip", 2)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SaveProfile(Profile{Name: "before", Region: "us"}); err != nil {
		t.Fatalf("a write missing the damaged page: %v (the case this test is about: it succeeds)", err)
	}
	p := AuditMirrorPage{Log: "log", Prev: "e002999", Cursor: "e009999", At: time.Unix(1e9, 0)}
	for i := 0; i < 97*7; i++ {
		p.Entries = append(p.Entries, AuditEntry{ID: fmt.Sprintf("f%06d", i), User: fmt.Sprintf("u%03d@example.com", i%97), IP: fmt.Sprintf("10.0.%d.%d", i%7, i%251), Raw: []byte(`{}`)})
	}
	if err := s.SaveAuditPage(context.Background(), p); !errors.Is(err, ErrDamaged) {
		t.Fatalf("a write through the damaged index: %v, want ErrDamaged", err)
	}
	if err := s.SaveProfile(Profile{Name: "after", Region: "us"}); !errors.Is(err, ErrDamaged) {
		t.Errorf("a write after SQLite reported the damage: %v, want it refused", err)
	}
}
