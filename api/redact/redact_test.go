package redact

import (
	"strings"
	"testing"
)

func TestRedactorForms(t *testing.T) {
	r := New("a+b/c d")
	in := "x a+b/c d y a%2Bb%2Fc+d z a+b%2Fc%20d Authorization: Bearer zzz-other"
	out := r.String(in)
	if strings.Contains(out, "a+b") || strings.Contains(out, "zzz-other") {
		t.Errorf("%q", out)
	}
	if got := Clean("a\x1b]52;c;Zm9v\x07b\u202e\nc"); strings.ContainsAny(got, "\x1b\x07\u202e\n") {
		t.Errorf("clean: %q", got)
	}
}
