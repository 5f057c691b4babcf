package cli

import (
	"bytes"
	"io/fs"
	"sync"
	"sync/atomic"
	"syscall"
)

// A process's stdout or stderr as the stream-fault walk gives it: a writer
// that keeps what it acknowledged and, on its schedule, fails at one write
// (after taking part of it) as a full disk, a closed pipe, an I/O error or a
// short write do, and stays failed, or takes writes again (space freed).

// faultKind is how a write fails.
type faultKind string

const (
	faultFull  faultKind = "full"  // ENOSPC, and the disk stays full
	faultPipe  faultKind = "pipe"  // EPIPE: the reader is gone for good
	faultIO    faultKind = "eio"   // EIO: a terminal hung up, a disk failed
	faultShort faultKind = "short" // the write takes less and says nothing; later writes succeed (a hole, if anyone writes them)
	faultFreed faultKind = "freed" // ENOSPC for three writes, then space is freed
)

var faultKinds = []faultKind{faultFull, faultPipe, faultIO, faultShort, faultFreed}

// errno is the kind's error, as the os package reports it; none for a
// short write.
func (k faultKind) errno() syscall.Errno {
	switch k {
	case faultFull, faultFreed:
		return syscall.ENOSPC
	case faultPipe:
		return syscall.EPIPE
	case faultIO:
		return syscall.EIO
	}
	return 0
}

// says is what the printer's line must quote of the failure.
func (k faultKind) says() string {
	if k == faultShort {
		return "short write"
	}
	return k.errno().Error()
}

// schedule is one fault: stream's write-th write (counting from 1) takes
// its first at bytes, then fails as kind.
type schedule struct {
	stream string // "stdout" or "stderr"
	write  int
	at     int
	kind   faultKind
}

// faultStream is one stream of one run.
type faultStream struct {
	mu    sync.Mutex
	name  string
	sched *schedule // nil: never fails
	reqs  *atomic.Int64

	sizes     []int  // each write's length
	acked     []byte // what it took, in order
	refused   bool
	remainder []byte // what the failing write did not take
	after     []byte // what it took after refusing (a short write's hole, or what followed freed space)
	reqAtFail int64  // the requests the simulators had received when it first failed
	freedAt   int64  // and when a write succeeded again after space was freed (0: never)
}

func (s *faultStream) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(b) == 0 {
		return 0, nil
	}
	s.sizes = append(s.sizes, len(b))
	k := len(s.sizes)
	sc := s.sched
	switch {
	case sc == nil || (!s.refused && k < sc.write):
		s.acked = append(s.acked, b...)
		return len(b), nil
	case !s.refused:
		n := min(sc.at, len(b)-1)
		s.acked = append(s.acked, b[:n]...)
		s.refused, s.remainder, s.reqAtFail = true, append([]byte(nil), b[n:]...), s.reqs.Load()
		if sc.kind == faultShort {
			return n, nil
		}
		return n, s.err()
	case sc.kind == faultShort || (sc.kind == faultFreed && k > sc.write+2):
		if s.freedAt == 0 {
			s.freedAt = s.reqs.Load()
		}
		s.acked = append(s.acked, b...)
		s.after = append(s.after, b...)
		return len(b), nil
	}
	return 0, s.err()
}

func (s *faultStream) err() error {
	return &fs.PathError{Op: "write", Path: "/dev/" + s.name, Err: s.sched.kind.errno()}
}

// lost reports whether something the run wrote did not reach the stream:
// refused and never written after (a follow that resumes from the first
// byte refused loses nothing; its checker reads the lines).
func (s *faultStream) lost() bool {
	return s.refused && !bytes.HasPrefix(s.after, s.remainder)
}

// resumed reports whether what the stream took after refusing goes on
// from the first byte it refused.
func (s *faultStream) resumed() bool {
	return len(s.after) > 0 && (bytes.HasPrefix(s.after, s.remainder) || bytes.HasPrefix(s.remainder, s.after))
}
