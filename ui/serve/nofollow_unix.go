//go:build !windows

package serve

import "syscall"

// oNoFollow: the debug file is not opened through a link put in its place.
const oNoFollow = syscall.O_NOFOLLOW
