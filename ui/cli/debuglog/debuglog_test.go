package debuglog

import (
	"errors"
	"strings"
	"testing"
)

type failAfter struct {
	b strings.Builder
	n int
}

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("no space left on device")
	}
	f.n--
	return f.b.Write(p)
}

// A sink writes nothing before its redactor is set, redacts each line
// whole, and keeps its first failed write (later lines are not written
// past a hole, and the failure names the sink).
func TestSinkRedactsAndKeepsItsFirstFailure(t *testing.T) {
	w := &failAfter{n: 1}
	s := ToStream(w, "stderr", "vaultdeck debug: ")
	l := Logger(s)
	l.Debug("before", "token", "tok-1")
	s.SetRedact(func(line string) string { return strings.ReplaceAll(line, "tok-1", "[token]") })
	l.Debug("after", "token", "tok-1")
	l.Debug("lost")
	l.Debug("past the hole")
	got := w.b.String()
	if strings.Contains(got, "before") || strings.Contains(got, "tok-1") || !strings.Contains(got, "vaultdeck debug: time=") || !strings.Contains(got, "token=[token]") {
		t.Errorf("written: %q", got)
	}
	if strings.Contains(got, "level=") {
		t.Errorf("a level in the line: %q", got)
	}
	if err := s.Err(); err == nil || !strings.Contains(err.Error(), "(stderr)") || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("Err = %v", err)
	}
	if strings.Contains(got, "past the hole") {
		t.Errorf("a line after the failure was written: %q", got)
	}
}
