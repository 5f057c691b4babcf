package redact

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestRedactorMatchesEveryForm(t *testing.T) {
	r := New(slashToken)
	for form, s := range echoForms(slashToken) {
		if out := r.String("a " + s + " b"); leaks(out) || !strings.Contains(out, Redacted) {
			t.Errorf("%s: %q", form, out)
		}
	}
}

// TestRedactingWriter: the last line of defence, with the token split
// across writes in every form, and output that holds no token unchanged.
func TestRedactingWriter(t *testing.T) {
	for form, s := range echoForms(slashToken) {
		for cut := 0; cut <= len(s); cut++ {
			var out bytes.Buffer
			w := writerRedacting(&out, slashToken)
			fmt.Fprintf(w, "line one\nbefore %s", s[:cut])
			fmt.Fprintf(w, "%s after\nlast", s[cut:])
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if leaks(out.String()) || !strings.HasPrefix(out.String(), "line one\nbefore ") || !strings.HasSuffix(out.String(), " after\nlast") {
				t.Fatalf("%s cut %d: %q", form, cut, out.String())
			}
		}
	}
	var out bytes.Buffer
	w := writerRedacting(&out, slashToken)
	big := strings.Repeat("harmless text, no secrets here… ", 10000)
	big = strings.ReplaceAll(big, "secrets", "things")
	io.WriteString(w, big)
	w.Flush()
	if out.String() != big {
		t.Error("clean output was changed")
	}
	// A long line with no newline still reaches the writer before Flush.
	if out.Reset(); true {
		io.WriteString(w, strings.Repeat("x", 200<<10))
		if out.Len() == 0 {
			t.Error("a long line was held back entirely")
		}
	}
}

// A prompt (no newline) reaches the terminal at once; only a tail that
// could be the start of the token waits for more.
func TestRedactingWriterPassesPrompts(t *testing.T) {
	var out bytes.Buffer
	w := writerRedacting(&out, slashToken)
	io.WriteString(w, "Type 12 to delete them, anything else to stop: ")
	if out.String() != "Type 12 to delete them, anything else to stop: " {
		t.Fatalf("prompt held back: %q", out.String())
	}
	out.Reset()
	io.WriteString(w, "\r3 of 9 files sent")
	if out.String() != "\r3 of 9 files sent" {
		t.Fatalf("progress held back: %q", out.String())
	}
	out.Reset()
	io.WriteString(w, " then vd%2FSec")
	if out.String() != " then " {
		t.Fatalf("wrote %q, want the possible token start held", out.String())
	}
	io.WriteString(w, "ret+Part=42/xyz!")
	w.Flush()
	if leaks(out.String()) || !strings.HasSuffix(out.String(), Redacted+"!") {
		t.Fatalf("%q", out.String())
	}
}

// writerRedacting is a Writer for a token known up front, as a client's
// is once its first request is made.
func writerRedacting(w io.Writer, secret string) *Writer {
	r := New(secret)
	return NewWriter(w, func() Redactor { return r })
}
