package audit

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTheFileItselfIsLockedToo: a follower that could not make the lock
// file beside the output (a directory it may not write to) still finds
// the running follower's lock on the file itself.
func TestTheFileItselfIsLockedToo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	s, err := OpenFileSink(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := OSFollowFS{}.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := lockOpen(path, f); err == nil || !strings.Contains(err.Error(), "another follower is writing") {
		t.Errorf("a second follower without the lock file: %v", err)
	}
	s.Close()
	if err := lockOpen(path, f); err != nil {
		t.Errorf("after the first ended: %v", err)
	}
}
