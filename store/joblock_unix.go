//go:build unix

package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// LockWriteJob takes this process's hold on write job id, so that two
// processes never run (or resume) one job at once: the second would check
// the first's request in flight, find it not yet applied and send it again.
// The hold is an flock(2) on a file of its own beside the database (the
// database's own locks are SQLite's), which the system releases when the
// process ends however it ends, kill -9 included: no lease to lapse, no
// clock to trust. The file keeps the holder's name for the one refused.
// Lock files are never removed: a file unlinked under a waiting opener
// would let two processes hold "the" lock.
func (s *Store) LockWriteJob(id int64) (unlock func(), err error) {
	path := s.Path()
	if path == "" || strings.HasPrefix(path, ":memory:") || strings.HasPrefix(path, "file:") {
		return func() {}, nil // a store of no file has no other process
	}
	dir := path + "-locks"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("write job %d could not be held (its lock folder: %w), so nothing of it was sent", id, err)
	}
	// written as well as read (the holder's name): O_NOFOLLOW, so a link put
	// in its place is refused, not followed
	f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("write-job-%d", id)), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("write job %d could not be held (%w), so nothing of it was sent", id, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			b, _ := io.ReadAll(io.LimitReader(f, 512))
			return nil, &JobHeldError{ID: id, Holder: strings.TrimSpace(string(b))}
		}
		return nil, fmt.Errorf("write job %d could not be held (%w), so nothing of it was sent", id, err)
	}
	host, _ := os.Hostname()
	holder := fmt.Sprintf("process %d on %s, since %s", os.Getpid(), host, time.Now().UTC().Format("2006-01-02 15:04:05 UTC"))
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(holder+"\n"), 0) // the name is for the refused: the hold stands without it
	}
	return func() {
		_ = f.Truncate(0)
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}
