package api

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vaultdeck/vaultdeck/api/jsonstream"
)

// Timeouts bound how long one attempt may wait on the network. A hung
// gateway must end in an error that names the endpoint, never an endless
// wait. Zero fields take the defaults; a negative field turns that timeout
// off. They use the real clock, not Config.Clock: they guard real sockets.
type Timeouts struct {
	Connect   time.Duration // TCP connect and, separately, the TLS handshake (default 10s)
	FirstByte time.Duration // from the request being sent to the response headers (default 30s)
	BodyStall time.Duration // longest silence while a body is being read (default 30s)
	// Total bounds one response as a whole, from the request being sent to
	// the body's last byte (curl's --max-time): a server that never stops
	// sending is never silent, so the stall timer alone would read it
	// forever. Default: TotalFactor times the longer of FirstByte and
	// BodyStall, so --timeout moves both (30s: 15 minutes, enough for the
	// largest recycle bin, 64 MB, at 0.6 Mbit/s).
	Total time.Duration
}

// Default timeouts, documented in the README.
const (
	DefaultConnectTimeout   = 10 * time.Second
	DefaultFirstByteTimeout = 30 * time.Second
	DefaultBodyStallTimeout = 30 * time.Second
)

// TotalFactor is how many silence timeouts a whole response may take.
const TotalFactor = 30

// DefaultTotalTimeout is Total when neither silence timeout is on.
const DefaultTotalTimeout = 15 * time.Minute

// maxTimeoutRetries is how often a timed-out idempotent request is sent
// again. Lower than the retry policy's count: every timed-out attempt
// already cost a full timeout.
const maxTimeoutRetries = 2

func (t Timeouts) normalized() Timeouts {
	pick := func(v, def time.Duration) time.Duration {
		if v == 0 {
			return def
		}
		return v
	}
	t.Connect = pick(t.Connect, DefaultConnectTimeout)
	t.FirstByte = pick(t.FirstByte, DefaultFirstByteTimeout)
	t.BodyStall = pick(t.BodyStall, DefaultBodyStallTimeout)
	if t.Total == 0 {
		t.Total = DefaultTotalTimeout
		if silence := max(t.FirstByte, t.BodyStall); silence > 0 {
			t.Total = TotalFactor * silence
		}
	}
	return t
}

// timeoutCause is the cancellation cause of an attempt whose own timer
// fired, which tells it apart from the caller cancelling.
type timeoutCause struct {
	stall   bool // within the response body
	sending bool // while the request body was being sent
	total   bool // the whole response took too long
	after   time.Duration
}

func (t *timeoutCause) Error() string { return "timeout" }

// stopper is a running timer.
type stopper interface{ Stop() bool }

// timerClock is what the watchdog times with: the real clock in use (the
// timers guard real sockets), a fake one in the package's tests, which set
// Config.timers to run a silence out without waiting for it.
type timerClock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) stopper
}

// watchdog cancels an attempt's context when a timer runs out: first the
// first-byte timer, then, once headers are in, a body timer that runs only
// while the body's reader waits in a read (watchedBody).
type watchdog struct {
	cancel context.CancelCauseFunc
	clk    timerClock
	mu     sync.Mutex
	timer  stopper
	total  stopper // the response's whole time; armed once
}

func (w *watchdog) after(d time.Duration, f func()) stopper {
	if w.clk == nil {
		return time.AfterFunc(d, f)
	}
	return w.clk.AfterFunc(d, f)
}

func (w *watchdog) now() time.Time {
	if w.clk == nil {
		return time.Now()
	}
	return w.clk.Now()
}

// startTotal arms the whole-response timer, once (a later call is a no-op).
func (w *watchdog) startTotal(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.total == nil && d > 0 {
		w.total = w.after(d, func() { w.cancel(&timeoutCause{total: true, after: d}) })
	}
}

// stopTotal disarms the whole-response timer once the body is done.
func (w *watchdog) stopTotal() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.total != nil {
		w.total.Stop()
	}
}

func (w *watchdog) arm(d time.Duration, stall bool) {
	w.armCause(d, &timeoutCause{stall: stall, after: d})
}

func (w *watchdog) armCause(d time.Duration, cause *timeoutCause) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	if d > 0 {
		w.timer = w.after(d, func() { w.cancel(cause) })
	}
}

// stop disarms the timer: arming for no time sets none.
func (w *watchdog) stop() { w.armCause(0, nil) }

// progressGate lets the reader of a body say what counts as progress. By
// default every byte does; a listing's reader (walkBody, the limiter of a
// body held whole) switches it to marks, and then only what it marks (a new
// item, the bytes of an item being read) re-arms the stall timer. A server
// that sends whitespace, padding members or a key that never ends is
// never silent on the wire, yet brings nothing: without the gate only the
// whole-answer bound (30 times --timeout) ended it. The reader and the body
// are read in one goroutine (the request's), so the counts are plain.
type progressGate struct {
	marked   bool                // only marks re-arm the timer
	progress jsonstream.Progress // marked by the reader (jsonstream's Scanner, Limiter)
	armed    uint64              // marks when the timer was last re-armed
}

type progressKey struct{}

// gateOf is the progress gate of a response's attempt, nil when it has none
// (a response that did not come through attempt).
func gateOf(ctx context.Context) *progressGate {
	g, _ := ctx.Value(progressKey{}).(*progressGate)
	return g
}

// counter is what the reader of the body marks progress on: nil for a body
// without a gate, which has no timer to re-arm.
func (g *progressGate) counter() *jsonstream.Progress {
	if g == nil {
		return nil
	}
	return &g.progress
}

// watchedBody times the silence of a body: its timer runs only while the
// reader waits in a read, so the time the client spends between reads
// (writing an item to a slow stdout, a view taking it, being descheduled
// on a loaded machine) is never blamed on the server. Without a marking
// gate every byte restarts the silence; under one, only progress does, and
// the time spent chewing bytes that brought none (whitespace, padding)
// counts too: that time the server's junk cost. The whole-answer timer
// (watchdog.total) is a different bound and runs throughout.
type watchedBody struct {
	rc    io.ReadCloser
	wd    *watchdog
	stall time.Duration
	n     int64
	ctx   context.Context
	gate  *progressGate
	// left is what remains of the silence; lastN what the last read
	// brought; outside when it returned (zero before the first read)
	left    time.Duration
	cause   *timeoutCause // the silence's, made once
	lastN   int
	outside time.Time
	// unmarked counts the bytes read since progress was last marked, and
	// lastByte is when the last of them came: a stall is bytes that
	// brought nothing only while they kept coming (some in the last half
	// of the silence); the start of a body and then nothing is silence on
	// the wire, said as such
	unmarked int64
	lastByte time.Time
}

func newWatchedBody(rc io.ReadCloser, wd *watchdog, stall time.Duration, ctx context.Context, gate *progressGate) *watchedBody {
	return &watchedBody{rc: rc, wd: wd, stall: stall, ctx: ctx, gate: gate, left: stall,
		cause: &timeoutCause{stall: true, after: stall}}
}

func (b *watchedBody) Read(p []byte) (int, error) {
	g := b.gate
	now := b.wd.now()
	switch {
	case g.marked && g.progress.Marks() != g.armed:
		// progress since the last read: the silence starts afresh
		g.armed = g.progress.Marks()
		b.left = b.stall
		b.unmarked = 0
	case !g.marked && b.lastN > 0:
		b.left = b.stall
	case g.marked && !b.outside.IsZero():
		// no progress since the last read: the time spent on its bytes
		// was the server's junk, not the client's work
		b.left -= now.Sub(b.outside)
	}
	if b.stall > 0 {
		// the message names the whole silence, though the timer runs what
		// is left of it; one already spent fires at once (1ns: arming for
		// no time sets no timer)
		b.wd.armCause(max(b.left, time.Nanosecond), b.cause)
	}
	n, err := b.rc.Read(p)
	b.wd.stop()
	b.outside = b.wd.now()
	b.left -= b.outside.Sub(now)
	b.lastN = n
	b.n += int64(n)
	b.unmarked += int64(n)
	if n > 0 {
		b.lastByte = b.outside
	}
	if err != nil && err != io.EOF {
		if e := stallOf(b.ctx, b.n); e != nil {
			e.noItem = g.marked && b.unmarked > 0 && b.outside.Sub(b.lastByte) < b.stall/2 && !e.total && !e.sending && e.received >= 0
			return n, e
		}
	}
	return n, err
}

func (b *watchedBody) Close() error {
	b.wd.stop()
	b.wd.stopTotal()
	err := b.rc.Close()
	b.wd.cancel(nil)
	return err
}

// sendWatch times the transport's writing of a request body: the send-stall
// timer is armed when a read hands the transport bytes and stopped when it
// comes back for more, so a server that stops reading an upload ends it
// after the stall timeout instead of blocking the write forever, while the
// time the body's own source takes (a file, the multipart writer) is not
// the server's.
type sendWatch struct {
	rc    io.ReadCloser
	wd    *watchdog
	stall time.Duration
	n     atomic.Int64
}

func (s *sendWatch) Read(p []byte) (int, error) {
	s.wd.stop()
	n, err := s.rc.Read(p)
	s.n.Add(int64(n))
	s.wd.armCause(s.stall, &timeoutCause{sending: true, after: s.stall})
	return n, err
}

func (s *sendWatch) Close() error { return s.rc.Close() }

// stallError is what a read of a stalled body returns; decoders turn it
// into a KindTimeout *Error naming the endpoint.
type stallError struct {
	after    time.Duration
	received int64
	sending  bool
	total    bool
	noItem   bool // bytes came, but no new item (progressGate)
}

func (s *stallError) Error() string { return "the body stalled" }

// timeoutOf reports whether ctx ended because of its own timer.
func timeoutOf(ctx context.Context, received int64) error {
	if s := stallOf(ctx, received); s != nil {
		return s
	}
	return nil
}

// stallOf is timeoutOf's stallError (nil when ctx did not time out).
func stallOf(ctx context.Context, received int64) *stallError {
	var tc *timeoutCause
	if errors.As(context.Cause(ctx), &tc) {
		if tc.total {
			return &stallError{after: tc.after, received: received, total: true}
		}
		if tc.sending {
			return &stallError{after: tc.after, received: received, sending: true}
		}
		if tc.stall {
			return &stallError{after: tc.after, received: received}
		}
		return &stallError{after: tc.after, received: -1}
	}
	return nil
}

func timeoutError(ep endpoint, s *stallError) *Error {
	return &Error{Kind: KindTimeout, Endpoint: ep.String(), After: s.after, Received: s.received, Sending: s.sending, Total: s.total, NoItem: s.noItem}
}

// asTimeout turns a stallError found in err into the endpoint's timeout
// error; nil when err is no timeout.
func asTimeout(ep endpoint, err error) *Error {
	var s *stallError
	if errors.As(err, &s) {
		return timeoutError(ep, s)
	}
	return nil
}
