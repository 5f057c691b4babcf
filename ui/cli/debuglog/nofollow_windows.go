//go:build windows

package debuglog

// openFlags: Windows has no such flags; the debug file is opened as named.
const openFlags = 0

func noReader(error) bool { return false }
