//go:build windows

package localfiletest

import "errors"

// mkfifo: Windows has no named pipes in the file system; the FIFO cases
// are skipped there.
func mkfifo(string) error { return errors.New("no named pipes in the file system on Windows") }
