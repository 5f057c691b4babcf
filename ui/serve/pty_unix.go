//go:build !windows

package serve

import (
	"os"

	"github.com/charmbracelet/ssh"
)

// ptyTerminal is the session's pseudo-terminal, the program's side (nil
// without one).
func ptyTerminal(sess ssh.Session) *os.File {
	if pty, _, ok := sess.Pty(); ok && pty.Slave != nil {
		return pty.Slave
	}
	return nil
}

// ptyMaster is the session's pseudo-terminal, the client's side (nil
// without one): its output queue is what the last line waits on.
func ptyMaster(sess ssh.Session) *os.File {
	if pty, _, ok := sess.Pty(); ok {
		return pty.Master
	}
	return nil
}
