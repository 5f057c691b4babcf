package serve

import (
	"os"

	"golang.org/x/sys/unix"
)

// ptyQueued says how many bytes the program wrote that the pty's master
// side (the SSH library's copier) has not read yet. SyscallConn, not Fd:
// Fd would switch the master to blocking mode under the copier's reads.
func ptyQueued(master *os.File) (int, bool) {
	rc, err := master.SyscallConn()
	if err != nil {
		return 0, false
	}
	n, ierr := 0, error(nil)
	if err := rc.Control(func(fd uintptr) { n, ierr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); err != nil || ierr != nil {
		return 0, false
	}
	return n, true
}
