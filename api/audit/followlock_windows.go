//go:build windows

package audit

import (
	"errors"

	"golang.org/x/sys/windows"
)

// Windows has neither flag: os.OpenFile there opens what a link points to,
// and a named pipe is not a path of the file system, so the mode check
// after the open is what refuses anything but a regular file.
const (
	oNoFollow = 0
	oNonBlock = 0
)

// errLocked is tryLock's answer when another process holds the lock.
var errLocked = errors.New("locked by another process")

// tryLock takes an exclusive lock on the file's first byte without
// waiting (LockFileEx, which the system releases with the handle, as
// flock is released on unix).
func tryLock(fd uintptr) error {
	ol := new(windows.Overlapped)
	err := windows.LockFileEx(windows.Handle(fd), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLocked
	}
	return err
}
