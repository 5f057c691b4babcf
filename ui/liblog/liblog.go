// Package liblog is where the libraries' log lines go. The standard log
// package is the logger every library the binary links writes to when it
// has something to say (net/http's transport and its HTTP/2 half, the SSH
// libraries, slog's default handler); its output is one per process, so the
// process points it, once, at a Router (log.SetOutput: the one global the
// standard library forces), and each face of the program says where the
// lines go while it runs: a headless command's stderr, the console's status
// line, serve's log. Whatever the destination, a line is whole, has every
// token the face knows removed, holds no control character and is bounded,
// before it goes anywhere; a library never writes to a stream itself.
package liblog

import (
	"bytes"
	"io"
	"sync"

	"github.com/vaultdeck/vaultdeck/api/redact"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// MaxLine is the longest line a library gets to say (the rest is cut and
// marked): a line that quotes what a server sent is the server's size.
const MaxLine = 500

// maxPending bounds a line a library writes without ending it.
const maxPending = 64 << 10

// Router takes the standard log package's output and hands each line to
// the destination in place. Safe for concurrent use: libraries log from
// their own goroutines (a transport's read loop).
type Router struct {
	mu       sync.Mutex
	fallback io.Writer // the process's stderr, while no face routes
	route    *route    // the destination in place; nil: fallback
	pend     []byte
}

// route is one face's destination; prev is the one it replaced.
type route struct {
	line   func(string)
	redact func(string) string
	prev   *route
}

// New is a router writing to stderr until a face routes the lines
// elsewhere; there, each line is prefixed "vaultdeck: " and only what looks
// like a bearer token is removed (no face has said which token it uses).
func New(stderr io.Writer) *Router { return &Router{fallback: stderr} }

// Route sends every line to line from now on, each first passed through
// redact (nil: only what looks like a bearer token is removed), until the
// returned func is called, which puts back the route it replaced. line is
// called with the router's lock held, one line at a time: it must not
// block (hand over, do not wait) nor log. A nil Router routes nothing.
func (r *Router) Route(line func(string), redact func(string) string) (restore func()) {
	if r == nil {
		return func() {}
	}
	r.mu.Lock()
	rt := &route{line: line, redact: redact, prev: r.route}
	r.route = rt
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		// Routes end in the order they began; one that ends out of turn
		// (a face that outlived the one it ran in) is only taken out.
		for p := &r.route; *p != nil; p = &(*p).prev {
			if *p == rt {
				*p = rt.prev
				return
			}
		}
	}
}

// Write takes what the log package writes: whole lines go out at once, an
// unfinished one waits for its end (or for maxPending bytes).
func (r *Router) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pend = append(r.pend, p...)
	for {
		i := bytes.IndexByte(r.pend, '\n')
		if i < 0 {
			if len(r.pend) >= maxPending {
				r.emit(string(r.pend))
				r.pend = r.pend[:0]
			}
			break
		}
		r.emit(string(r.pend[:i]))
		r.pend = r.pend[:copy(r.pend, r.pend[i+1:])]
	}
	if cap(r.pend) > maxPending && len(r.pend) == 0 {
		r.pend = nil // one long line does not keep its buffer for good
	}
	return len(p), nil
}

// emit hands one line to the route in place.
func (r *Router) emit(raw string) {
	var red func(string) string
	if r.route != nil {
		red = r.route.redact
	}
	text := Line(raw, red)
	if text == "" {
		return
	}
	if r.route != nil {
		r.route.line(text)
		return
	}
	_, _ = io.WriteString(r.fallback, "vaultdeck: "+text+"\n")
}

// Line is raw as a library line is shown: the token removed by redact (nil:
// only what looks like a bearer token) before anything else, so that
// nothing done after can re-join a split token, then made single-line and
// inert, redacted again, and bounded by MaxLine.
func Line(raw string, redact func(string) string) string {
	if redact == nil {
		redact = bearerOnly
	}
	s := redact(cleaned(redact(raw)))
	return truncate(s)
}

func bearerOnly(s string) string { return redact.Redactor{}.String(s) }

// cleaned drops escape sequences whole (ui/sanitize), then what control
// characters are left, and collapses whitespace (api/redact's Clean).
func cleaned(s string) string { return redact.Clean(sanitize.Line(s)) }

func truncate(s string) string { return redact.Truncate(s, MaxLine) }

// Redactors remove several tokens from a line: a face that holds many
// (serve: each bound profile's client, each session's own) adds each
// client's redactor as it makes the client. With Max set, only the Max
// most recent are kept: a client of a session long gone has no connection
// left to log about.
type Redactors struct {
	Max int // 0: no limit

	mu  sync.Mutex
	all []func(string) string
}

// Add makes f one of the redactors.
func (r *Redactors) Add(f func(string) string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, f)
	if r.Max > 0 && len(r.all) > r.Max {
		r.all = append(r.all[:0], r.all[len(r.all)-r.Max:]...)
	}
}

// Redact is s passed through every redactor.
func (r *Redactors) Redact(s string) string {
	r.mu.Lock()
	all := append([]func(string) string(nil), r.all...)
	r.mu.Unlock()
	for _, f := range all {
		s = f(s)
	}
	return bearerOnly(s)
}
