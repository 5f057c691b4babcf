//go:build unix

package localfile

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// openNonBlocking opens path for reading with O_NONBLOCK: open(2) of a
// named pipe waits for a writer, deaf to signals, and one put where a
// regular file was looked at must not hang the process; for a regular file
// the flag changes nothing. O_NOFOLLOW refuses a link put there meanwhile.
func openNonBlocking(path string, l links) (*os.File, error) {
	flags := unix.O_RDONLY | unix.O_NONBLOCK | unix.O_CLOEXEC
	switch l {
	case noLinkAtEnd:
		flags |= unix.O_NOFOLLOW
	case noLinkOnPath:
		return openNoLinkOnPath(path)
	}
	for {
		fd, err := unix.Open(path, flags, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			if err == unix.ELOOP && l == noLinkAtEnd {
				return nil, linkOnPath(path, path, false)
			}
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

// openNoLinkOnPath opens an absolute path without following a symbolic
// link anywhere on it: each folder from the root down is opened with
// O_NOFOLLOW relative to the one before (openat), then the file itself,
// after an fstatat that refuses what is not a regular file before it is
// opened. O_NOFOLLOW alone covers only the last name, and a folder of the
// path swapped for a link would still lead elsewhere.
func openNoLinkOnPath(name string) (*os.File, error) {
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
		here := filepath.Join(at, part)
		var st unix.Stat_t
		if err := unix.Fstatat(dir, part, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			unix.Close(dir)
			return nil, &os.PathError{Op: "open", Path: here, Err: err}
		}
		mode := fileMode(uint32(st.Mode)) // uint16 on macOS and the BSDs, uint32 on Linux
		if mode&os.ModeSymlink != 0 {
			unix.Close(dir)
			return nil, linkOnPath(name, here, !last)
		}
		flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if last {
			if !mode.IsRegular() {
				unix.Close(dir)
				return nil, &Error{Path: name, Reason: "is " + Describe(mode) + ", not a regular file", Err: ErrNotRegular}
			}
			flags |= unix.O_NONBLOCK
		} else {
			flags |= unix.O_DIRECTORY
		}
		fd, err := openat(dir, part, flags)
		unix.Close(dir)
		if err != nil {
			// A link put there since the fstatat: ELOOP (Linux), EMLINK
			// (FreeBSD) or ENOTDIR (a link where a folder was).
			if err == unix.ELOOP || err == unix.EMLINK || err == unix.ENOTDIR {
				return nil, linkOnPath(name, here, !last)
			}
			return nil, &os.PathError{Op: "open", Path: here, Err: err}
		}
		dir, at = fd, here
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

// fileMode is a stat's type bits as an fs.FileMode.
func fileMode(m uint32) os.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return os.ModeDir
	case unix.S_IFLNK:
		return os.ModeSymlink
	case unix.S_IFIFO:
		return os.ModeNamedPipe
	case unix.S_IFSOCK:
		return os.ModeSocket
	case unix.S_IFCHR:
		return os.ModeDevice | os.ModeCharDevice
	case unix.S_IFBLK:
		return os.ModeDevice
	}
	return os.ModeIrregular
}
