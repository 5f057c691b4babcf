//go:build unix

package audit

import (
	"errors"
	"syscall"
)

// The follow file is opened without following a link, and without blocking
// on a named pipe put in its place (it is then refused by its mode).
const (
	oNoFollow = syscall.O_NOFOLLOW
	oNonBlock = syscall.O_NONBLOCK
)

// errLocked is tryLock's answer when another process holds the lock.
var errLocked = errors.New("locked by another process")

// tryLock takes an exclusive flock on fd without waiting; the system
// releases it when the process ends however it ends.
func tryLock(fd uintptr) error {
	err := syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
