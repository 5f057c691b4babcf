package printer

import "io"

// A process's stdout or stderr as the printer writes to it: every write
// checked, the bytes it took counted, its first failure kept, and nothing
// written after it (a later write that succeeded would leave a hole in
// the output). Finish says a lost stdout in one line with what reached it.

// StreamError is a stream's first failed write: a full disk, a closed
// pipe, an I/O error, a short write. Each stream has at most one, so
// errors.Is finds it through whatever wrapped it on the way up.
type StreamError struct {
	Stream string // "stdout" or "stderr"
	Err    error
}

func (e *StreamError) Error() string { return e.Err.Error() }
func (e *StreamError) Unwrap() error { return e.Err }

// stream is one of the process's streams with its writes checked.
type stream struct {
	name    string
	w       io.Writer
	took    int64 // bytes the stream took
	offered int64 // bytes given to it, taken or not
	err     *StreamError
	failed  func(*StreamError) // told once, at the first failure
}

func (s *stream) Write(b []byte) (int, error) {
	s.offered += int64(len(b))
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(b)
	n = max(0, min(n, len(b)))
	s.took += int64(n)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		s.fail(err)
		return n, s.err
	}
	return n, nil
}

func (s *stream) fail(err error) {
	s.err = &StreamError{Stream: s.name, Err: err}
	if s.failed != nil {
		s.failed(s.err)
	}
}

// Unwrap is the stream written to (terminal checks look through).
func (s *stream) Unwrap() io.Writer { return s.w }
