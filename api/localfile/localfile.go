// Package localfile reads the files a person names or the program keeps on
// this machine: a CA bundle, the server's host key, an authorized-keys file,
// a token or credential file, the saved views, a matter spreadsheet, the files
// of an upload. Each is read the same way: only a
// regular file, refused by what it is (a named pipe, a device, a folder, a
// socket) before anything opens it; opened without blocking and checked to
// be the file that was looked at; and bounded by a size that fits its kind,
// so /dev/zero, a FIFO with no writer or a file that grows for ever end in
// an error naming the file, at once.
//
// It imports nothing of the project: every layer that reads a local file
// (the client's CA file, the jobs, serve, the views) calls it.
package localfile

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/dustin/go-humanize"
)

// Kind is what a file is for: its name in messages, its size bound, how
// links on its path are treated and whether standard input may stand for
// it.
type Kind int

// The kinds of file the program reads.
const (
	// CABundle is a PEM bundle of extra trust roots (--ca-file). The
	// system's whole bundle is about 220 KB.
	CABundle Kind = iota + 1
	// HostKey is serve's private host key: an OpenSSH private key, a few KB
	// even for RSA 16384. Not followed when it is a link: the key is
	// trusted only as a file serve made or was given.
	HostKey
	// AuthorizedKeys is serve's OpenSSH authorized-keys file: a public key
	// is a line of a few hundred bytes to 3 KB.
	AuthorizedKeys
	// Token is the opt-in token file or a systemd credential: a token is a
	// line. Not followed when it is a link, as the token file never was.
	Token
	// Credential is a systemd credential file (LoadCredential=): systemd
	// may place it through a link, so one is followed.
	Credential
	// SavedViews is the saved views file, one short line a view.
	SavedViews
	// MatterFile is a spreadsheet export of client/matter pairs. The
	// interface caps a file at 500 MB (upload_files); a million pairs is
	// about 30 MB.
	MatterFile
	// UploadFile is one file of an upload: at most the interface's
	// 500,000,000 bytes. No link is followed anywhere on its path (the
	// plan recorded the path with its links resolved, so a link met later
	// is a change).
	UploadFile
	// ConfigFile is the configuration file (config.yaml): profiles and
	// settings, a few lines each. Configuration management often places
	// it through a link (home-manager, stow), so one is followed.
	ConfigFile
	// AccessFile is an access plan (`access plan --out`) or the CSV of
	// project, e-mail and level rows a plan is made from (--set): a row is
	// under 300 bytes, so 64 MiB holds some 200,000 of them.
	AccessFile
)

// MaxUploadBytes is the interface's limit on one uploaded file (the spec's
// 500 MB, "for all file types"); api.MaxFileBytes is the same number.
const MaxUploadBytes = 500_000_000

// Name is the kind as a message says it: "the CA file".
func (k Kind) Name() string {
	switch k {
	case CABundle:
		return "CA file"
	case HostKey:
		return "host key"
	case AuthorizedKeys:
		return "authorized keys file"
	case Token:
		return "token file"
	case Credential:
		return "credential"
	case SavedViews:
		return "saved views file"
	case MatterFile:
		return "matter file"
	case UploadFile:
		return "file"
	case ConfigFile:
		return "configuration file"
	case AccessFile:
		return "access plan or CSV file"
	}
	return "file"
}

// Max is the largest file of this kind that is read, in bytes.
func (k Kind) Max() int64 {
	switch k {
	case CABundle:
		return 4 << 20
	case HostKey:
		return 64 << 10
	case AuthorizedKeys:
		return 4 << 20
	case Token, Credential:
		return 16 << 10
	case SavedViews, ConfigFile:
		return 1 << 20
	case MatterFile, UploadFile:
		return MaxUploadBytes
	case AccessFile:
		return 64 << 20
	}
	return 0
}

// Stdin says whether "-" (or /dev/stdin) may name standard input for this
// kind: a matter file is often piped.
func (k Kind) Stdin() bool { return k == MatterFile }

// links is how a link on the path is treated.
type links int

const (
	followLinks  links = iota // the person named it; a link to a regular file is that file
	noLinkAtEnd               // the file itself must not be a link
	noLinkOnPath              // no link anywhere on the path (an absolute one)
)

func (k Kind) links() links {
	switch k {
	case HostKey, Token:
		return noLinkAtEnd
	case UploadFile:
		return noLinkOnPath
	}
	return followLinks
}

// What a read is refused for, for errors.Is.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("too large")
	ErrChanged    = errors.New("changed while it was read")
	ErrLink       = errors.New("a symbolic link")
)

// Error is a file that was not read, or not read whole: its path, its kind
// and why. It wraps one of the Err values above, or the system's error
// (fs.ErrNotExist, fs.ErrPermission, ...).
type Error struct {
	Kind   Kind
	Path   string
	Reason string // what it is, or what happened: "is a named pipe (FIFO), not a regular file"
	Err    error
}

// Error reads as the system's own errors do, "path: what", so that a caller
// that wraps it ("reading the CA file: ...") reads naturally.
func (e *Error) Error() string { return e.Path + ": " + e.Reason }

func (e *Error) Unwrap() error { return e.Err }

// Refused says the file was refused for what it is (not a regular file, a
// link, too large, changed), not for what the system said (missing, denied).
func (e *Error) Refused() bool {
	switch e.Err {
	case ErrNotRegular, ErrTooLarge, ErrChanged, ErrLink:
		return true
	}
	return false
}

// Describe says what a file that is not a regular one is: "a named pipe
// (FIFO)", "a device", "a socket", "a folder", "a symbolic link"; "" for a
// regular file.
func Describe(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

func notRegular(k Kind, path string, m fs.FileMode) *Error {
	what := Describe(m)
	if what == "a symbolic link" {
		return &Error{Kind: k, Path: path, Reason: "is a symbolic link, not a regular file: the " + k.Name() + " is not read through one", Err: ErrLink}
	}
	return &Error{Kind: k, Path: path, Reason: "is " + what + ", not a regular file: the " + k.Name() + " must be one", Err: ErrNotRegular}
}

// linkOnPath is a link met where none may be: the file itself, or a folder
// (at) above it.
func linkOnPath(path, at string, folder bool) *Error {
	if folder {
		return &Error{Path: path, Reason: "the folder " + at + " on its path is a symbolic link now (links are not followed)", Err: ErrLink}
	}
	return &Error{Path: path, Reason: "is a symbolic link now (links are not followed)", Err: ErrLink}
}

func tooLarge(k Kind, path string, size int64, exact bool) *Error {
	what := "is " + humanize.Bytes(uint64(size))
	if !exact {
		what = "holds more than " + humanize.Bytes(uint64(k.Max()))
	}
	return &Error{Kind: k, Path: path, Reason: fmt.Sprintf("%s, over the %s a %s may be", what, humanize.Bytes(uint64(k.Max())), k.Name()), Err: ErrTooLarge}
}

func failed(k Kind, path string, err error) *Error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Kind: k, Path: path, Reason: err.Error(), Err: err}
}
