package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCheckPassesAWholeFileAndFailsADamagedOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vaultdeck.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// Enough rows that the file has pages beyond the schema's.
	for i := 0; i < 400; i++ {
		if err := s.PutCache("p", string(rune('a'+i%26))+string(rune(i)), make([]byte, 2000), s.now()); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Check(); err != nil {
		t.Fatalf("a whole file: %v", err)
	}
	if _, err := s.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// Scribble over pages in the middle of the file, as a failing disk would.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := f.Stat()
	junk := make([]byte, 4096*3)
	for i := range junk {
		junk[i] = byte(i * 7)
	}
	if _, err := f.WriteAt(junk, info.Size()/2&^4095); err != nil {
		t.Fatal(err)
	}
	f.Close()

	// The schema page is intact, so Open succeeds: exactly the case where a
	// damaged journal could otherwise read as an empty one.
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	err = s2.Check()
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("Check on a damaged file = %v, want ErrDamaged", err)
	}
}
