//go:build !windows

package debuglog

import "syscall"

// oNoFollow: the debug file is opened without following a link put in its
// place.
const oNoFollow = syscall.O_NOFOLLOW
