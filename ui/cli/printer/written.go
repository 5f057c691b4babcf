package printer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// What reached stdout and stderr: the streams' own counts, what stdout's
// buffer was given, and where a listing's items end in it, to say in one
// line what a lost stdout took.

// streams are an invocation's two streams and the count of stdout's.
type streams struct {
	out, err *stream
	given    *given // what stdout's buffer handed on
	buf      interface{ Buffered() int }
	shaped   bool // --jq or --template between the buffer and the stream
	marks    marks
	mu       sync.Mutex                // stops: a job's goroutines write too
	stops    []context.CancelCauseFunc // the contexts a loss ends (Watch)
	said     bool                      // the stdout line is on stderr
}

func newStreams(out, errw io.Writer) *streams {
	s := &streams{out: &stream{name: "stdout", w: out}, err: &stream{name: "stderr", w: errw}}
	s.out.failed, s.err.failed = s.lose, s.lose
	return s
}

// onLoss ends stop's context at the first loss of either stream (at once
// if one is lost already).
func (s *streams) onLoss(stop context.CancelCauseFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.lostErr(); e != nil {
		stop(e)
		return
	}
	s.stops = append(s.stops, stop)
}

func (s *streams) lose(e *StreamError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, stop := range s.stops {
		stop(e)
	}
	s.stops = nil
}

// lostErr is the first stream's failure, or nil.
func (s *streams) lostErr() error {
	switch {
	case s.out.err != nil:
		return s.out.err
	case s.err.err != nil:
		return s.err.err
	}
	return nil
}

// given counts what stdout's buffer was given and hands it on; once stdout
// failed it only counts (nothing more is worth redacting or shaping), and
// it always says all was taken with the error, so the buffer above it
// drops what it handed over rather than holding it to count it twice.
type given struct {
	w         io.Writer
	out       *stream
	n         int64 // bytes handed to w, or dropped after the failure
	forwarded int64 // bytes handed to w
}

func (g *given) Write(b []byte) (int, error) {
	g.n += int64(len(b))
	if g.out.err != nil {
		return len(b), g.out.err
	}
	g.forwarded += int64(len(b))
	_, err := g.w.Write(b)
	return len(b), err
}

// marks are the ends of a listing's items in what stdout was given, to
// say how many of them reached it whole; those already known to have
// reached it are counted and dropped, so a million items hold a page's
// worth of offsets.
type marks struct {
	ends []int64
	done int
}

// itemEnd marks the end of an item's line (its line break included) in
// what stdout was given so far: the stdout line counts the items whose
// end reached the stream.
func (s *streams) itemEnd() {
	if s.given != nil {
		s.markAt(s.givenSoFar())
	}
}

// givenSoFar is what stdout was given: handed on by its buffer, or in it.
func (s *streams) givenSoFar() int64 { return s.given.n + int64(s.buf.Buffered()) }

// markAt marks an item's end at offset end of what stdout was given.
func (s *streams) markAt(end int64) {
	s.marks.ends = append(s.marks.ends, end)
	if len(s.marks.ends) >= 4096 {
		s.marks.settle(s.out.took)
	}
}

// settle counts and drops the ends at or before took.
func (m *marks) settle(took int64) {
	i := 0
	for i < len(m.ends) && m.ends[i] <= took {
		i++
	}
	m.done += i
	m.ends = m.ends[:copy(m.ends, m.ends[i:])]
}

// exact reports whether stdout took the bytes it was given unchanged, so
// that an item's end there is its end in the stream: no --jq or
// --template between them, and no token redacted out of them.
func (s *streams) exact() bool {
	return !s.shaped && s.given != nil && s.given.forwarded == s.out.offered
}

// lostLine is the one line a lost stdout gets: what failed, and what
// reached the stream before it (bytes, and a listing's whole items).
func (s *streams) lostLine() string {
	took := s.out.took
	what := "nothing was written"
	switch {
	case took == 0:
	case s.exact() && (s.marks.done > 0 || len(s.marks.ends) > 0):
		s.marks.settle(took)
		what = fmt.Sprintf("%s (%s) %s written", plural.Count(s.marks.done, "item"), plural.Count(took, "byte"), plural.Verb(s.marks.done, "was", "were"))
	default:
		what = fmt.Sprintf("%s %s written", plural.Count(took, "byte"), plural.Verb(took, "was", "were"))
	}
	if took > 0 {
		what += ", the rest was not"
	}
	return fmt.Sprintf("stdout failed: %v: %s", s.out.err.Err, what)
}

// streamLost reports whether err is (or wraps) a stream's failure the
// printer says itself.
// A job that stopped because a stream was lost (Watch) ends with
// context.Canceled: that is the stream's failure too.
func (s *streams) lost(err error) bool {
	return (s.out.err != nil && errors.Is(err, s.out.err)) || (s.err.err != nil && errors.Is(err, s.err.err)) ||
		(s.lostErr() != nil && errors.Is(err, context.Canceled))
}

// sayLost says a lost stdout's one line, once: what its buffers still
// held is offered first (and refused), so that the count is final.
func sayLost(p *Printer) { // not a method: the Printer keeps to its streams and formats
	if p.io.out.err == nil || p.io.said {
		return
	}
	if p.out != nil {
		_ = errors.Join(p.out.Flush(), p.redOut.Flush())
	}
	p.io.said = true
	p.Note("%s", p.io.lostLine())
}
