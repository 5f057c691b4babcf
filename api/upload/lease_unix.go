//go:build unix

package upload

import (
	"errors"
	"syscall"
)

// processGone reports whether no process with pid exists on this host.
func processGone(pid int) bool {
	err := syscall.Kill(pid, 0)
	return errors.Is(err, syscall.ESRCH)
}
