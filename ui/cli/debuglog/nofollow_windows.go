//go:build windows

package debuglog

// oNoFollow: Windows has no such flag; the debug file is opened as named.
const oNoFollow = 0
