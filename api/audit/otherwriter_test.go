package audit_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestAnotherWriterOfTheFollowFileStopsTheFollower (issue 40, case 5): a
// writer that does not hold the follower lock (an older release's follower
// still running after an upgrade) appends to the file between two batches,
// or during one: the follower stops with a line saying so and writes
// nothing more, instead of taking the other's last line as its own (1,006
// duplicates and an interleaved line).
func TestAnotherWriterOfTheFollowFileStopsTheFollower(t *testing.T) {
	for _, when := range []string{"between batches", "during a batch"} {
		t.Run(when, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.jsonl")
			var fs audit.FollowFS = audit.OSFollowFS{}
			if when == "during a batch" {
				fs = appendingFS{other: path}
			}
			s, err := audit.OpenFileSinkFS(fs, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			err = s.Deliver(ctx, []store.AuditEntry{entry("a1"), entry("a2")})
			if when == "between batches" && err != nil {
				t.Fatal(err)
			}
			if when == "between batches" {
				other(t, path)
				err = s.Deliver(ctx, []store.AuditEntry{entry("a3")})
			}
			if !errors.Is(err, audit.ErrFollowFileChanged) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "another process") {
				t.Fatalf("the follow file written by another: %v, want ErrFollowFileChanged naming it", err)
			}
			before, _ := os.ReadFile(path)
			if err := s.Deliver(ctx, []store.AuditEntry{entry("a4")}); !errors.Is(err, audit.ErrFollowFileChanged) {
				t.Errorf("a batch after the stop: %v, want the same refusal", err)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Errorf("the follower wrote after it found another writer:\n%s", after)
			}
		})
	}
}

// other appends a line as another follower would: the same entry again.
func other(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(`{"id":"a2"}` + "\n"); err != nil {
		t.Fatal(err)
	}
}

// appendingFS is the real filesystem whose file gets a line of another
// writer right after each write of the follower's.
type appendingFS struct {
	audit.OSFollowFS
	other string
}

func (a appendingFS) Open(path string) (audit.FollowFile, error) {
	f, err := a.OSFollowFS.Open(path)
	if err != nil {
		return nil, err
	}
	return appendingFile{FollowFile: f, other: a.other}, nil
}

type appendingFile struct {
	audit.FollowFile
	other string
}

func (f appendingFile) Write(b []byte) (int, error) {
	n, err := f.FollowFile.Write(b)
	if o, oerr := os.OpenFile(f.other, os.O_WRONLY|os.O_APPEND, 0); oerr == nil {
		o.WriteString(`{"id":"a1"}` + "\n")
		o.Close()
	}
	return n, err
}
