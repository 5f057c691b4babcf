//go:build !unix

package localfile

import "os"

// openNonBlocking opens path for reading. This system has no O_NONBLOCK or
// O_NOFOLLOW: the caller looked at the name first (refusing a link, a pipe
// or a device), and its fstat after the open catches a swap in between.
func openNonBlocking(path string, l links) (*os.File, error) {
	if l != followLinks {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return nil, linkOnPath(path, path, false)
		}
	}
	return os.Open(path)
}
