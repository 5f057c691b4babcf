//go:build !unix

package upload

import "os"

// openFile opens a journaled file, refusing a symbolic link in its place:
// this system has no O_NOFOLLOW, so the name is checked before the open
// (the identity compared after it catches a swap in between).
func openFile(name string) (*os.File, error) {
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, &LinkError{Path: name}
	}
	return os.Open(name)
}
