package factory

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/vaultdeck/vaultdeck/ui/cli/debuglog"
)

// Debug is --debug and --debug-file as parsed; VAULTDECK_DEBUG (1, true,
// or api for the headers too) turns it on as well.
type Debug struct {
	On   bool
	File string
}

// debugLog is one command's debug log (ui/cli/debuglog), made the first
// time a client is, redacted of the token as a whole line.
type debugLog struct {
	logger *slog.Logger
	wrap   func(http.RoundTripper) http.RoundTripper
	sink   *debuglog.Sink
}

// debug makes the command's debug log, or nil when it is off. The console
// draws on the terminal, so its log needs a file.
func (f *Factory) debug() (*debugLog, error) {
	f.debugOnce.Do(func() { f.dlog, f.dlogErr = f.openDebug() })
	return f.dlog, f.dlogErr
}

func (f *Factory) openDebug() (*debugLog, error) {
	var d Debug
	if f.Debug != nil {
		d = *f.Debug
	}
	lvl, err := debuglog.FromEnv(f.Getenv("VAULTDECK_DEBUG"))
	if err != nil {
		return nil, err
	}
	if !d.On && !lvl.On && d.File == "" {
		return nil, nil
	}
	var sink *debuglog.Sink
	switch {
	case d.File != "":
		if sink, err = debuglog.OpenFile(d.File); err != nil {
			return nil, err
		}
	case f.IO.Command() == "console":
		return nil, errors.New("the console draws on the terminal, so its debug log needs a file: give --debug-file FILE")
	default:
		sink = debuglog.ToStream(f.IO.Err(), "stderr", "vaultdeck debug: ")
	}
	sink.SetRedact(f.secret.Redact)
	logger := debuglog.Logger(sink)
	// the client logs a failed attempt with its reason itself
	t := debuglog.Transport{Logger: logger, Headers: lvl.Headers}
	return &debugLog{logger: logger, wrap: t.Wrap, sink: sink}, nil
}

// DebugErr is the debug log's first failed write: a command whose debug
// log was asked for and lost does not exit 0.
func (f *Factory) DebugErr() error {
	if f.dlog == nil {
		return nil
	}
	return f.dlog.sink.Err()
}

// tellSecret is the token's one way to both redactors: the printer's
// streams and the debug log.
func (f *Factory) tellSecret(tok string) {
	f.IO.Redact(tok)
	f.secret.Set(tok)
}
