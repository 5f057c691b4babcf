package api

import (
	"io"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

// RedactingWriter is what RedactingWriter returns: the last line of
// defence on a process's output (redact.Writer).
type RedactingWriter = redact.Writer

// RedactingWriter wraps w, removing whatever token this client is using
// (known from its first request on; nothing from the server is written
// before that). Flush must be called at the end.
func (c *Client) RedactingWriter(w io.Writer) *RedactingWriter {
	return redact.NewWriter(w, c.currentRedactor)
}

// Redact removes the client's current token, in any form, from s: for text
// that did not come through an error of this package (a status line).
func (c *Client) Redact(s string) string { return c.currentRedactor().String(s) }
