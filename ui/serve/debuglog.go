package serve

import (
	"context"
	"io"
	"log/slog"
	"net/http"

	"github.com/vaultdeck/vaultdeck/ui/cli/debuglog"
)

// serve's --debug (issue 41): the command line's debug log
// (ui/cli/debuglog), on serve's stderr or --debug-file, each line tagged
// with its session (its number, as in its "ssh session" log line, and its
// key), so one admin's requests can be read apart from the others'. Every
// line is redacted of every token serve's clients use before it is
// written; a request of no session (the scheduled crawl's, checks') is
// not logged.

type debugKey struct{}

// debugSession is what a request's line names of its session.
type debugSession struct {
	n   int64
	key string
}

// withDebug tags ctx's requests with their session for the debug log.
func withDebug(ctx context.Context, ss *session) context.Context {
	return context.WithValue(ctx, debugKey{}, debugSession{n: ss.n, key: ss.key.Fingerprint})
}

// sessionTag is a request's session, for the start of its line.
func sessionTag(r *http.Request) ([]slog.Attr, bool) {
	ds, ok := r.Context().Value(debugKey{}).(debugSession)
	if !ok {
		return nil, false
	}
	return []slog.Attr{slog.Int64("session", ds.n), slog.String("key", ds.key)}, true
}

// debugTransport is next with the debug log's lines (next itself when off).
func (s *Server) debugTransport(next http.RoundTripper) http.RoundTripper {
	if s.debug == nil {
		return next
	}
	return debuglog.Transport{Logger: s.debug, Headers: s.cfg.DebugHeaders, Tag: sessionTag, Failures: true}.Wrap(next)
}

// Debug is serve's --debug, --debug-file.
type Debug struct {
	On   bool
	File string
}

// openDebug makes the debug logger (nil when off): VAULTDECK_DEBUG turns
// it on too, as for every command. Its lines pass the sink's redactor
// first, set once the server (which knows its clients' tokens) is made,
// before any request; until then nothing is written.
func openDebug(d Debug, getenv func(string) string, stderr io.Writer) (*slog.Logger, debuglog.Level, *debuglog.Sink, error) {
	lvl, err := debuglog.FromEnv(getenv("VAULTDECK_DEBUG"))
	if err != nil {
		return nil, lvl, nil, err
	}
	if !d.On && !lvl.On && d.File == "" {
		return nil, lvl, nil, nil
	}
	sink := debuglog.ToStream(stderr, "stderr", "")
	if d.File != "" {
		if sink, err = debuglog.OpenFile(d.File); err != nil {
			return nil, lvl, nil, err
		}
	}
	return debuglog.Logger(sink), lvl, sink, nil
}
