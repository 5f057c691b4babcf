//go:build !windows

package debuglog

import (
	"errors"
	"syscall"
)

// openFlags: the debug file is opened without following a link put in its
// place, and without waiting: a named pipe nobody reads would otherwise
// block the open for ever (the command then deaf to SIGTERM, which it
// handles). Go's os.File writes a non-blocking descriptor as it writes any.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// noReader reports whether err is a named pipe's open with no reader.
func noReader(err error) bool { return errors.Is(err, syscall.ENXIO) }
