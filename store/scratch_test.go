package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestOpenScratchLaterMakesNothingBeforeBegin: the demo's temporary home is
// made after its first frame, so the scratch store may not call mkdir (nor
// open anything) before begin; its calls wait for begin, then answer from
// a migrated database in the directory mkdir made; begin twice opens once.
func TestOpenScratchLaterMakesNothingBeforeBegin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	made := make(chan struct{}, 2)
	s, begin := OpenScratchLater(func() (string, error) {
		made <- struct{}{}
		return dir, os.Mkdir(dir, 0o700)
	}, nil)
	answered := make(chan error, 1)
	go func() {
		answered <- s.SaveProfile(Profile{Name: "demo", Region: "us", CreatedAt: time.Now()})
	}()
	select {
	case <-made:
		t.Fatal("mkdir ran before begin")
	case err := <-answered:
		t.Fatalf("a call answered before begin: %v", err)
	default:
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the directory exists before begin: %v", err)
	}
	begin()
	begin()
	if err := <-answered; err != nil {
		t.Fatalf("the call waiting for begin: %v", err)
	}
	if got := s.Path(); got != filepath.Join(dir, FileName) {
		t.Errorf("path %q, want the database in mkdir's directory", got)
	}
	if v, err := s.Version(); err != nil || v != len(migrations) {
		t.Errorf("version %d, %v", v, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if len(made) != 1 {
		t.Errorf("mkdir ran %d times, want once", len(made))
	}
}

// TestOpenScratchLaterReportsMkdir: a directory that cannot be made is
// every call's error, as a database that cannot be opened is.
func TestOpenScratchLaterReportsMkdir(t *testing.T) {
	refused := errors.New("demo: cannot create a temporary home: permission denied")
	s, begin := OpenScratchLater(func() (string, error) { return "", refused }, nil)
	begin()
	if _, err := s.Profiles(); !errors.Is(err, refused) {
		t.Errorf("profiles: %v, want mkdir's error", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}
