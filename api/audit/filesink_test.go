package audit_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

func entry(id string) store.AuditEntry {
	return store.AuditEntry{ID: id, Raw: []byte(`{"id":"` + id + `"}`)}
}

// TestTwoFollowersOfOneFileAreRefused: the second follower of a file is
// refused with a sentence naming the first (its pid), not left to write
// every entry a second time; once the first ends, the file is free.
func TestTwoFollowersOfOneFileAreRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	first, err := audit.OpenFileSink(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = audit.OpenFileSink(path)
	if err == nil || !strings.Contains(err.Error(), "another follower is writing") || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second follower: %v", err)
	}
	first.Close()
	second, err := audit.OpenFileSink(path)
	if err != nil {
		t.Fatalf("after the first ended: %v", err)
	}
	second.Close()
}

// TestFollowFileReplacedBetweenBatches: a path replaced by a symbolic
// link (to a file elsewhere) or by a named pipe between two batches is
// refused by name; nothing is written through the link.
func TestFollowFileReplacedBetweenBatches(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		replace    func(path, elsewhere string) error
	}{
		{"symlink", "symbolic link", func(path, elsewhere string) error { return os.Symlink(elsewhere, path) }},
		{"fifo", "named pipe", func(path, _ string) error { return syscall.Mkfifo(path, 0o600) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, elsewhere := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "precious")
			os.WriteFile(elsewhere, []byte("keep\n"), 0o600)
			s, err := audit.OpenFileSink(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			if err := s.Deliver(ctx, []store.AuditEntry{entry("01"), entry("02")}); err != nil {
				t.Fatal(err)
			}
			os.Rename(path, path+".1")
			if err := tc.replace(path, elsewhere); err != nil {
				t.Fatal(err)
			}
			err = s.Deliver(ctx, []store.AuditEntry{entry("03")})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("deliver after the path became a %s: %v", tc.name, err)
			}
			if data, _ := os.ReadFile(elsewhere); string(data) != "keep\n" {
				t.Errorf("the link's target now holds %q", data)
			}
		})
	}
}

// TestFileSinkNeverWritesAnEntryTwice: entries not after the last one
// delivered (a page handed again) are skipped, not appended.
func TestFileSinkNeverWritesAnEntryTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	s, err := audit.OpenFileSink(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, batch := range [][]string{{"01", "02"}, {"01", "02", "03"}, {"02"}, {"04"}} {
		var es []store.AuditEntry
		for _, id := range batch {
			es = append(es, entry(id))
		}
		if err := s.Deliver(ctx, es); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	if got := strings.Join(idsOfLines(t, string(data)), " "); got != "01 02 03 04" {
		t.Errorf("file holds %s", got)
	}
}
