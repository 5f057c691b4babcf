// Package debuglog is the --debug log of the command line and of serve
// (gh's GH_DEBUG, kubectl's -v=6): a line per request from the HTTP
// transport, with what the client logs of its own at debug level (retries
// and their reasons, budget waits, failures). A line names the method, the
// path with the query's names only (values name people and matters), the
// status, the body's bytes and the time to the body's end; with headers,
// both sides' headers, credentials withheld. Every line is redacted as a
// whole before it is written, and a sink keeps its first failed write, so
// a command whose log was asked for and lost does not exit 0.
package debuglog

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
)

// Level is what VAULTDECK_DEBUG asks for.
type Level struct {
	On      bool // a line per request
	Headers bool // and both sides' headers (VAULTDECK_DEBUG=api)
}

// FromEnv reads VAULTDECK_DEBUG: empty, 0, false, no or off is off; 1,
// true, yes or on a line per request; api the headers too; anything else
// is refused, naming the value.
func FromEnv(v string) (Level, error) {
	switch v := strings.ToLower(strings.TrimSpace(v)); v {
	case "", "0", "false", "no", "off":
		return Level{}, nil
	case "1", "true", "yes", "on":
		return Level{On: true}, nil
	case "api":
		return Level{On: true, Headers: true}, nil
	default:
		return Level{}, fmt.Errorf("VAULTDECK_DEBUG=%q: give 1 (a line per request) or api (the headers too)", v)
	}
}

// Sink writes each record (slog's handler writes one in one call) as one
// redacted line, and keeps its first failure.
type Sink struct {
	mu     sync.Mutex
	w      io.Writer
	name   string // "stderr", or the file's path, for the failure
	prefix string
	redact func(string) string
	err    error
	close  func() error
}

// OpenFile opens the debug file path: the user's to read, so created
// 0600, appended to, never through a link put in its place, and a named
// pipe only when something reads it. Nothing is
// written until SetRedact is called: a line before it is dropped.
func OpenFile(path string) (*Sink, error) {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|openFlags, 0o600)
	if noReader(err) {
		return nil, fmt.Errorf("the debug log %s is a named pipe that nothing reads: start its reader first, or give a file", path)
	}
	if err != nil {
		return nil, fmt.Errorf("the debug log %s could not be opened: %w", path, err)
	}
	return &Sink{w: fh, name: path, redact: dropAll, close: fh.Close}, nil
}

// ToStream is a sink on w (stderr), each line after prefix.
func ToStream(w io.Writer, name, prefix string) *Sink {
	return &Sink{w: w, name: name, prefix: prefix, redact: dropAll, close: func() error { return nil }}
}

// dropAll is the redactor until one is set: nothing unredacted, ever.
func dropAll(string) string { return "" }

// SetRedact sets what each line passes before it is written.
func (s *Sink) SetRedact(f func(string) string) {
	s.mu.Lock()
	s.redact = f
	s.mu.Unlock()
}

func (s *Sink) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return len(b), nil // a log with a hole in it is worse than one that stops
	}
	line := s.redact(string(b))
	if line == "" {
		return len(b), nil
	}
	if _, err := io.WriteString(s.w, s.prefix+line); err != nil {
		s.err = fmt.Errorf("the debug log (%s) could not be written: %w", s.name, err)
	}
	return len(b), nil
}

// Err is the sink's first failed write.
func (s *Sink) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close closes the file under the sink (nothing for a stream).
func (s *Sink) Close() error { return s.close() }

// Logger is the debug log's logger on s: times in UTC to the millisecond,
// no level (every line is debug), and without the client's own
// per-attempt line, which the transport's (the same request, with its
// status and bytes) replaces.
func Logger(s *Sink) *slog.Logger {
	h := slog.NewTextHandler(s, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: attr})
	return slog.New(dropped{h})
}

func attr(groups []string, a slog.Attr) slog.Attr {
	switch {
	case len(groups) > 0:
	case a.Key == slog.LevelKey:
		return slog.Attr{}
	case a.Key == slog.TimeKey:
		return slog.String(slog.TimeKey, a.Value.Time().UTC().Format("2006-01-02T15:04:05.000Z"))
	}
	return a
}

type dropped struct{ slog.Handler }

func (d dropped) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "api request" {
		return nil
	}
	return d.Handler.Handle(ctx, r)
}

func (d dropped) WithAttrs(as []slog.Attr) slog.Handler { return dropped{d.Handler.WithAttrs(as)} }
func (d dropped) WithGroup(g string) slog.Handler       { return dropped{d.Handler.WithGroup(g)} }
