//go:build windows

package factory

// oNoFollow: Windows has no such flag; the debug file is opened as named.
const oNoFollow = 0
