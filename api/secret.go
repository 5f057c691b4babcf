package api

import (
	"io"
	"sync/atomic"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

// Secret is the token to redact where no client stands between the server
// and the writer: the command line's printer is told it by whoever
// resolves the token, so its stdout and stderr are redacted from the first
// byte whether or not a client was built. Safe for concurrent use.
type Secret struct {
	red atomic.Pointer[redact.Redactor]
}

// Set makes tok the token to redact from now on ("" for none).
func (s *Secret) Set(tok string) {
	if cur := s.red.Load(); cur != nil && cur.Redacts(tok) {
		return
	}
	r := redact.New(tok)
	s.red.Store(&r)
}

func (s *Secret) current() redact.Redactor {
	if r := s.red.Load(); r != nil {
		return *r
	}
	return redact.Redactor{}
}

// RedactingWriter wraps w, removing the token Set last named (the
// client's RedactingWriter, for a token known without a client).
func (s *Secret) RedactingWriter(w io.Writer) *RedactingWriter {
	return redact.NewWriter(w, s.current)
}

// Redact removes the token, in any form, from text.
func (s *Secret) Redact(text string) string { return s.current().String(text) }
