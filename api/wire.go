// This file is the end of an answer on an HTTP/1 connection. Bytes the
// service (or a proxy) sends past the end of its answer (a 200 beyond its
// Content-Length, a 204 or 304 with a body, anything after a chunked body's
// end) are read by Go's transport into its buffer, where it finds them when
// it next looks at the idle connection: it logs them ("Unsolicited response
// received on idle HTTP channel") and closes the connection, and the
// request that preceded them had already been taken as answered. Those
// bytes prove the answer's framing is not what the service meant (a
// confused proxy, a desynchronised connection, a smuggled second answer),
// so they fail the request: nothing of the answer is used.
//
// How it is told, without parsing HTTP a second time: the transport puts
// the connection back as idle (httptrace's PutIdleConn) only once the
// answer is wholly read, and the first thing it then does with it is look
// for more (a Peek on its buffered reader). An empty buffer makes it ask
// the socket (a Read on the connection: nothing more was sent with the
// answer); a buffer holding bytes makes it log them and close the
// connection without asking the socket. The connection the transport
// reads is ours (wireConn, from the dialer), so the first of those two
// events after PutIdleConn is the verdict, in the request's goroutine,
// before its answer is used. A Write in between is the next request on
// the same connection and tells nothing: the verdict is still the next
// Read or Close, unless the connection is idle again first (wireTaken):
// the transport handed it to a request that was waiting before it looked,
// and read what its buffer held as that request's answer, which that
// request then knows as early (no read of the socket since it was
// written: an answer cannot come before its request). HTTP/2 frames its
// answers itself and never calls PutIdleConn: nothing is watched there.

package api

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

// wireEvent is what the transport did with a connection first after it
// became idle.
type wireEvent int

const (
	wireRead  wireEvent = iota + 1 // it asked the socket for more: nothing was left of the answer
	wireClose                      // it closed it without asking: it held bytes past the answer
	// wireTaken: the connection went to the next request, and was idle
	// again, without a read or a close: what the transport found in its
	// buffer was read as that request's answer (answerEnd.early).
	wireTaken
)

// wireConn is a connection as the transport reads it: once armed, its next
// Read or Close is told to the one waiting for it. It also counts the
// reads that brought bytes, so that an answer can be told from bytes that
// were already in the transport's buffer before its request was written
// (early).
type wireConn struct {
	net.Conn
	next atomic.Pointer[chan wireEvent]
	// reads counts the reads that brought bytes; begun is reads when the
	// request in flight began to be written (the first Write since the
	// connection was new or idle, which fresh marks).
	reads, begun atomic.Int64
	fresh        atomic.Bool
}

func newWireConn(c net.Conn) *wireConn {
	w := &wireConn{Conn: c}
	w.fresh.Store(true)
	return w
}

func (w *wireConn) Write(p []byte) (int, error) {
	if w.fresh.Swap(false) {
		w.begun.Store(w.reads.Load())
	}
	return w.Conn.Write(p)
}

// early reports whether the answer being read (the transport has its first
// byte) came without a read of the socket since its request began to be
// written: it was in the transport's buffer already, bytes that followed
// an earlier answer. A real answer cannot come before its request.
func (w *wireConn) early() bool { return w.reads.Load() == w.begun.Load() }

func (w *wireConn) tell(e wireEvent) {
	if ch := w.next.Swap(nil); ch != nil {
		*ch <- e // buffered: the transport never waits for the request
	}
}

func (w *wireConn) Read(p []byte) (int, error) {
	w.tell(wireRead)
	n, err := w.Conn.Read(p)
	if n > 0 {
		w.reads.Add(1)
	}
	return n, err
}

func (w *wireConn) Close() error {
	w.tell(wireClose)
	return w.Conn.Close()
}

// arm makes the connection's next Read or Close a verdict on ch.
func (w *wireConn) arm() <-chan wireEvent {
	ch := make(chan wireEvent, 1)
	if old := w.next.Swap(&ch); old != nil {
		*old <- wireTaken
	}
	w.fresh.Store(true) // the next Write begins the next request
	return ch
}

// wireDialer dials as d does, each connection a wireConn.
func wireDialer(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return newWireConn(c), nil
	}
}

// wireTLSDialer dials TLS as the transport would (cfg, read at each dial:
// the CA file's roots are set after), and hands the transport an HTTP/1.1
// connection as a wireConn over TLS, so that what is watched is what the
// transport reads, not the records under it. An HTTP/2 connection is
// handed over as the *tls.Conn, which the transport needs to speak HTTP/2
// (and which frames its answers itself). Through an HTTPS proxy the
// transport makes the TLS itself, over a wireConn: surplus allows for it.
func wireTLSDialer(d *net.Dialer, cfg *tls.Config) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c := cfg.Clone()
		c.NextProtos = []string{"h2", "http/1.1"}
		conn, err := (&tls.Dialer{NetDialer: d, Config: c}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		tc := conn.(*tls.Conn)
		if tc.ConnectionState().NegotiatedProtocol == "h2" {
			return tc, nil
		}
		return newWireConn(tc), nil
	}
}

// answerEnd follows one attempt's connections, from the transport's trace:
// more than one when a redirect is followed, each watched once it is idle.
type answerEnd struct {
	ctx   context.Context // the caller's: a wait for a verdict ends with it
	mu    sync.Mutex
	conn  *wireConn // the connection in use
	tls   *tls.Conn // the TLS connection over it, if any
	idle  []idleConn
	bad   bool // a verdict taken said bytes followed an answer
	early bool // the answer was in the transport's buffer before the request
}

// idleConn is a connection the transport put back as idle: its verdict
// will come on next.
type idleConn struct {
	next <-chan wireEvent
	tls  *tls.Conn
}

type answerEndKey struct{}

// withAnswerEnd adds to actx, an attempt's context under the caller's ctx,
// the trace that follows the attempt's connections.
func withAnswerEnd(actx, ctx context.Context) context.Context {
	a := &answerEnd{ctx: ctx}
	actx = context.WithValue(actx, answerEndKey{}, a)
	return httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			c := info.Conn
			tc, _ := c.(*tls.Conn)
			if tc != nil {
				c = tc.NetConn()
			}
			w, _ := c.(*wireConn)
			a.mu.Lock()
			a.conn, a.tls = w, tc
			a.mu.Unlock()
		},
		// The smuggled answer: when the transport hands a connection just
		// put back as idle to a request waiting for one before it has
		// looked for more, bytes that followed the last answer are read as
		// this request's answer. They were read from the socket before
		// this request was written.
		GotFirstResponseByte: func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			if a.conn != nil && a.conn.early() {
				a.early = true
			}
		},
		// Called on the transport's own goroutine, just before it looks
		// at the connection again: it must not wait.
		PutIdleConn: func(err error) {
			a.mu.Lock()
			defer a.mu.Unlock()
			if err == nil && a.conn != nil {
				a.idle = append(a.idle, idleConn{next: a.conn.arm(), tls: a.tls})
			}
		},
	})
}

// surplus reports whether the transport found bytes past the end of an
// answer on the attempt's connections (resp's, and a redirect's before
// it): it waits for the transport's first move on each connection it put
// back as idle, which follows at once (see the top of this file). False
// for a connection that did not become idle (closed after the answer,
// HTTP/2, a client of the caller's own): the transport never reads past
// the answer there.
func surplus(resp *http.Response) bool {
	a, _ := resp.Request.Context().Value(answerEndKey{}).(*answerEnd)
	if a == nil {
		return false
	}
	a.mu.Lock()
	idle := a.idle
	a.idle = nil
	a.mu.Unlock()
	bad := false
	for _, ic := range idle {
		select {
		case e := <-ic.next:
			// Over TLS, a close_notify the server sent with its answer
			// closes the connection without a Read too: an orderly close.
			bad = bad || e == wireTaken || e == wireClose && (ic.tls == nil || !peerClosedTLS(ic.tls))
		case <-a.ctx.Done():
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.bad = a.bad || bad
	return a.bad || a.early
}

// earlyAnswer reports whether resp's answer was bytes that followed an
// earlier answer (answerEnd.early).
func earlyAnswer(resp *http.Response) bool {
	a, _ := resp.Request.Context().Value(answerEndKey{}).(*answerEnd)
	if a == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.early
}

// answerTail is as much as is read of a body past its JSON value to reach
// its end (a chunked body's last chunk and trailer); a body with more is
// closed unread, and its connection is not used again.
const answerTail = 64 << 10

// answerEnded reads a decoded answer to its end and says what broke there:
// a malformed end of the body (a bad trailer, bad chunking), or bytes after
// it on the connection. A failure to read the rest that is no protocol
// fault (a stall, a reset) leaves the decoded answer as it is: its
// connection is closed, and nothing followed it.
func answerEnded(ep endpoint, resp *http.Response, red redact.Redactor) error {
	_, err := io.Copy(io.Discard, io.LimitReader(resp.Body, answerTail))
	if pe := protocolError(ep, resp.StatusCode, red, err); pe != nil {
		return pe
	}
	if surplus(resp) {
		return surplusError(ep, resp)
	}
	return nil
}

// peerClosedTLS reports whether the peer ended the TLS session (its
// close_notify is what a read of the closed connection returns). The
// transport is done with the connection: it closed it.
func peerClosedTLS(tc *tls.Conn) bool {
	_, err := tc.Read(make([]byte, 1))
	return errors.Is(err, io.EOF)
}
