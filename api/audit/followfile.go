package audit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/vaultdeck/vaultdeck/api/localfile"
)

// FollowFile is the follow file as FileSink uses it, and the seam through
// which a test makes any single write, sync, truncate or stat fail (a full
// disk, an I/O error, a short write, a crash).
type FollowFile interface {
	// Write appends p at the file's end, wherever that is now (the file
	// is opened for appending: after a copytruncate the next line starts
	// at the new end, not at the old offset).
	Write(p []byte) (int, error)
	Sync() error
	Truncate(size int64) error
	Stat() (os.FileInfo, error)
	ReadAt(p []byte, off int64) (int, error)
	Close() error
}

// FollowFS opens the follow file and looks at its path; OSFollowFS is the
// real one.
type FollowFS interface {
	// Open opens path for appending, creating it, and refuses anything
	// that is not a regular file reached without following a link.
	Open(path string) (FollowFile, error)
	// Lstat is the path's own state now (a rotation moves it away).
	Lstat(path string) (os.FileInfo, error)
}

// OSFollowFS is the operating system's files.
type OSFollowFS struct{}

// Open opens path O_APPEND|O_NOFOLLOW; O_NONBLOCK keeps a named pipe put
// in its place from hanging the open (it is then refused by its mode).
func (OSFollowFS) Open(path string) (FollowFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|oNoFollow|oNonBlock, 0o640)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link: follow writes only to a regular file it opens without following links; give the file's own path", path)
		}
		return nil, fmt.Errorf("the output file could not be opened: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("the output file %s could not be examined: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s): follow writes only to a regular file; give another --out", path, localfile.Describe(st.Mode()))
	}
	return f, nil
}

// Lstat is os.Lstat.
func (OSFollowFS) Lstat(path string) (os.FileInfo, error) { return os.Lstat(path) }

// lockFollow takes the follower lock of path: an flock on a lock file
// beside it (.NAME.lock, which a rotation of NAME leaves where it is),
// held until Close, released by the system when the process ends however
// it ends. Two followers of one file would each write every entry. The
// lock file says who holds it, for the refusal's sentence.
func lockFollow(path string) (io.Closer, error) {
	lp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
	f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE|oNoFollow, 0o640)
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		// a directory this follower may not write to (the file given to it
		// may still be writable): the lock on the file itself (lockOpen)
		// keeps a second follower out, without naming it
		return io.NopCloser(nil), nil
	}
	if err != nil {
		return nil, fmt.Errorf("the follower lock %s could not be opened: %w", lp, err)
	}
	if err := tryLock(f.Fd()); err != nil {
		holder := make([]byte, 200)
		n, _ := f.ReadAt(holder, 0)
		f.Close()
		if errors.Is(err, errLocked) {
			who := strings.TrimSpace(strings.Map(func(r rune) rune {
				if unicode.IsControl(r) {
					return -1 // another process wrote it: no escape sequence reaches the terminal
				}
				return r
			}, string(holder[:n])))
			if who == "" {
				who = "another process"
			}
			return nil, fmt.Errorf("another follower is writing %s (%s; it holds %s): two followers of one file would write every entry twice, so stop that one first or give another --out", path, who, lp)
		}
		return nil, fmt.Errorf("the follower lock %s could not be taken: %w", lp, err)
	}
	// Who holds the lock is for the sentence above only: a lock file that
	// cannot be written to still locks.
	host, _ := os.Hostname()
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(fmt.Sprintf("vaultdeck audit follow, pid %d on %s, since %s", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))), 0)
	return f, nil
}

// lockOpen locks the open follow file itself as well: the backstop of a
// follower that could not make the lock file, and of one that could,
// against it. Released when the file is closed. A file that cannot say
// its descriptor (a test's) is not locked.
func lockOpen(path string, f FollowFile) error {
	fd, ok := f.(interface{ Fd() uintptr })
	if !ok {
		return nil
	}
	err := tryLock(fd.Fd())
	if errors.Is(err, errLocked) {
		return fmt.Errorf("another follower is writing %s (it holds a lock on the file): two followers of one file would write every entry twice, so stop that one first or give another --out", path)
	}
	if err != nil {
		return fmt.Errorf("the output file %s could not be locked: %w", path, err)
	}
	return nil
}
