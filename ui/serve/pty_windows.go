//go:build windows

package serve

import (
	"os"

	"github.com/charmbracelet/ssh"
)

// On Windows the SSH library allocates no pseudo-terminal of its own to
// hand over: the program writes to the session, and the last line does not
// wait on a queue there is none of.
func ptyTerminal(ssh.Session) *os.File { return nil }

func ptyMaster(ssh.Session) *os.File { return nil }
