//go:build unix

package upload

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// openFile opens a journaled file without following a symbolic link
// anywhere on its path: each folder from the root down is opened with
// O_NOFOLLOW relative to the one before (openat), then the file itself.
// O_NOFOLLOW alone covers only the last name, and a folder of the path
// swapped for a link would still lead elsewhere. Walk records paths with
// the root's own links resolved, so a link met here appeared since.
//
// O_NONBLOCK: open(2) of a named pipe waits for a writer, and one put where
// a journaled file was would hang a resume, deaf to signals; for a regular
// file it changes nothing. The caller's fstat refuses what is not a
// regular file.
func openFile(name string) (*os.File, error) {
	if !filepath.IsAbs(name) {
		return nil, &os.PathError{Op: "open", Path: name, Err: unix.EINVAL}
	}
	parts := strings.Split(strings.TrimPrefix(filepath.Clean(name), "/"), "/")
	dir, err := unix.Open("/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: "/", Err: err}
	}
	at := "/"
	for i, part := range parts {
		last := i == len(parts)-1
		flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if last {
			flags |= unix.O_NONBLOCK
		} else {
			flags |= unix.O_DIRECTORY
		}
		fd, err := openat(dir, part, flags)
		if err != nil {
			// Say a link by name: ELOOP (Linux), EMLINK (FreeBSD) or
			// ENOTDIR (a link where a folder was) all mean it here.
			var st unix.Stat_t
			if unix.Fstatat(dir, part, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				err = &LinkError{Path: filepath.Join(at, part), Folder: !last}
			} else {
				err = &os.PathError{Op: "open", Path: filepath.Join(at, part), Err: err}
			}
			unix.Close(dir)
			return nil, err
		}
		unix.Close(dir)
		dir, at = fd, filepath.Join(at, part)
	}
	return os.NewFile(uintptr(dir), name), nil
}

// openat retries an open interrupted by a signal.
func openat(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}
