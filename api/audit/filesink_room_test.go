package audit_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// roomFS is a disk with room for a set number of bytes more: a write
// beyond it writes what fits and fails with ENOSPC, as a nearly full
// filesystem does (tmpfs, ext4 alike).
type roomFS struct{ room *int }

func (fs roomFS) Open(path string) (audit.FollowFile, error) {
	f, err := audit.OSFollowFS{}.Open(path)
	if err != nil {
		return nil, err
	}
	return &roomFile{File: f.(*os.File), room: fs.room}, nil
}

func (fs roomFS) Lstat(path string) (os.FileInfo, error) { return os.Lstat(path) }

type roomFile struct {
	*os.File
	room *int
}

func (f *roomFile) Write(p []byte) (int, error) {
	if len(p) <= *f.room {
		*f.room -= len(p)
		return f.File.Write(p)
	}
	n, _ := f.File.Write(p[:*f.room])
	*f.room -= n
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

// TestADiskWithRoomForPartOfABatchTakesThatPart: a disk with room for
// some lines of a batch but not all of it keeps the whole lines that fit
// (cutting only the torn one), and the retry writes the rest only. Before,
// the whole batch was cut back off at every try, so a follower on a disk
// with room for hundreds of entries, behind by a batch larger than that
// (a page of 1,000 entries, some 400 kB), wrote and cut the same batch
// forever and delivered nothing until more space was freed: through the
// binary on a 1 MB tmpfs with 224 kB free, `audit follow --once --out`
// kept one line and never finished.
func TestADiskWithRoomForPartOfABatchTakesThatPart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	line := len(`{"id":"01"}` + "\n")
	room := 3*line + 5 // three whole lines and part of a fourth
	s, err := audit.OpenFileSinkFS(roomFS{&room}, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	batch := []store.AuditEntry{entry("01"), entry("02"), entry("03"), entry("04"), entry("05")}
	for try := 1; try <= 2; try++ { // the follower retries the same batch while the disk stays full
		err := s.Deliver(ctx, batch)
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("try %d on a full disk: %v, want ENOSPC", try, err)
		}
		data, _ := os.ReadFile(path)
		if got := strings.Join(idsOfLines(t, string(data)), " "); got != "01 02 03" || !strings.HasSuffix(string(data), "\n") {
			t.Fatalf("after try %d the file holds %q (%q): want the three whole lines that fit, and no torn one", try, got, data)
		}
	}
	room = 10 * line // space freed
	if err := s.Deliver(ctx, batch); err != nil {
		t.Fatalf("after space was freed: %v", err)
	}
	data, _ := os.ReadFile(path)
	if got := strings.Join(idsOfLines(t, string(data)), " "); got != "01 02 03 04 05" {
		t.Errorf("the file holds %s, want each entry once", got)
	}
}
