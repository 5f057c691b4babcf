package localfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// File is an open regular file of a kind: reading it stops with ErrTooLarge
// past the kind's bound, and at its end checks that the file did not change
// while it was read (its size or modification time moved: an export still
// being written, a file replaced in place).
type File struct {
	f    *os.File
	info fs.FileInfo // fstat of the descriptor, at open
	kind Kind
	path string
	n    int64 // bytes read so far
	err  error // the first refusal, returned again by every later Read
}

// Open opens path as a file of kind k. It looks at the name first (lstat or
// stat, by the kind's rule on links) and refuses what is not a regular file
// or is already too large, before any open; then it opens without blocking
// (a FIFO put there meanwhile does not wait for a writer) and checks, by
// fstat, that the file opened is the one looked at.
func Open(path string, k Kind) (*File, error) { return open(path, k, nil) }

// open is Open with a step between the look and the open (tests replace the
// file there).
func open(path string, k Kind, between func()) (*File, error) {
	if path == "" {
		return nil, &Error{Kind: k, Path: path, Reason: "no " + k.Name() + " was named", Err: fs.ErrInvalid}
	}
	var looked fs.FileInfo
	var err error
	if k.links() == followLinks {
		looked, err = os.Stat(path)
	} else {
		looked, err = os.Lstat(path)
	}
	if err != nil {
		return nil, failed(k, path, err)
	}
	if !looked.Mode().IsRegular() {
		return nil, notRegular(k, path, looked.Mode())
	}
	if looked.Size() > k.Max() {
		return nil, tooLarge(k, path, looked.Size(), true)
	}
	if between != nil {
		between()
	}
	f, err := openNonBlocking(path, k.links())
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.Kind = k
			return nil, e
		}
		return nil, failed(k, path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, failed(k, path, err)
	}
	if !os.SameFile(looked, info) || !info.Mode().IsRegular() {
		f.Close()
		return nil, &Error{Kind: k, Path: path, Reason: "was replaced while it was being opened (now " + describeOr(info.Mode(), "another file") + "): nothing was read", Err: ErrChanged}
	}
	if info.Size() > k.Max() {
		f.Close()
		return nil, tooLarge(k, path, info.Size(), true)
	}
	return &File{f: f, info: info, kind: k, path: path}, nil
}

func describeOr(m fs.FileMode, regular string) string {
	if d := Describe(m); d != "" {
		return d
	}
	return regular
}

// Info is the open file's fstat, taken at open: what a caller checks (its
// mode bits, its identity) is the file that is read.
func (f *File) Info() fs.FileInfo { return f.info }

// Stat is Info, for readers that size their buffers from a file's Stat.
func (f *File) Stat() (fs.FileInfo, error) { return f.info, nil }

// OS is the descriptor, for a caller that reads the file more than once
// (an upload hashes it, then sends it) and bounds its reads by Info's size.
func (f *File) OS() *os.File { return f.f }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Read reads the file, failing past the kind's bound, and at the end of
// the file fails when the file changed while it was read.
func (f *File) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	max := f.kind.Max()
	// One byte past the bound is asked for, to tell "exactly the bound"
	// from "more".
	if room := max + 1 - f.n; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := f.f.Read(p)
	f.n += int64(n)
	if f.n > max {
		f.err = tooLarge(f.kind, f.path, f.n, false)
		return 0, f.err
	}
	switch {
	case err == io.EOF:
		if cerr := f.unchanged(); cerr != nil {
			f.err = cerr
			return n, cerr
		}
	case err != nil:
		f.err = failed(f.kind, f.path, err) // "read PATH: ..." said as the others are
		return n, f.err
	}
	return n, err
}

// unchanged checks, at the end of the file, that what was read is the
// file as it was opened: as many bytes as it then held and no write since.
func (f *File) unchanged() error {
	now, err := f.f.Stat()
	if err != nil {
		return failed(f.kind, f.path, err)
	}
	if f.info.Size() == 0 && now.Size() == 0 && f.n > 0 {
		// /proc and /sys say 0 and give bytes: no size to check them by.
		return &Error{Kind: f.kind, Path: f.path, Reason: "says it is empty yet gave bytes (a file of /proc or /sys?): the " + f.kind.Name() + " must be a regular file", Err: ErrNotRegular}
	}
	if f.n != f.info.Size() || now.Size() != f.info.Size() || !now.ModTime().Equal(f.info.ModTime()) {
		return &Error{Kind: f.kind, Path: f.path, Reason: "changed while it was read (still being written?): read it again once it is complete", Err: ErrChanged}
	}
	return nil
}

// Read reads the whole file at path as a file of kind k.
func Read(path string, k Kind) ([]byte, error) {
	f, err := Open(path, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadAll()
}

// ReadAll reads the rest of the file, in one allocation of its size.
func (f *File) ReadAll() ([]byte, error) {
	buf := make([]byte, 0, f.info.Size()+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Input opens name as a file of kind k, or standard input when name is
// "-" or /dev/stdin and the kind may be piped: stdin is then read through
// the same bound, whatever it is (a pipe, a terminal, a file). Other kinds
// refuse "-" by name.
func Input(name string, stdin io.Reader, k Kind) (io.ReadCloser, error) {
	if name == "-" || name == "/dev/stdin" {
		if !k.Stdin() {
			return nil, &Error{Kind: k, Path: name, Reason: "is standard input: the " + k.Name() + " must be a regular file", Err: ErrNotRegular}
		}
		return io.NopCloser(Limit(stdin, k)), nil
	}
	f, err := Open(name, k)
	if err != nil {
		return nil, err // not a nil *File in a non-nil interface
	}
	return f, nil
}

// Limit bounds a stream of kind k (standard input): reading it fails with
// ErrTooLarge past the kind's bound.
func Limit(r io.Reader, k Kind) io.Reader { return &limited{r: r, kind: k} }

type limited struct {
	r    io.Reader
	kind Kind
	n    int64
}

func (l *limited) Read(p []byte) (int, error) {
	max := l.kind.Max()
	if l.n > max {
		return 0, tooLarge(l.kind, "standard input", l.n, false)
	}
	if room := max + 1 - l.n; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := l.r.Read(p)
	l.n += int64(n)
	if l.n > max {
		return 0, tooLarge(l.kind, "standard input", l.n, false)
	}
	return n, err
}
