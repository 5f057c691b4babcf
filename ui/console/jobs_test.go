package console

import (
	"strings"
	"testing"
)

// A console assembled without the write jobs (serve's way, or any caller
// that hands none) offers none of their keys, though its backend, an
// *api.Client, could upload and change matters: a capability is handed
// over, never found by asking the backend what else it is.
func TestNoJobsNoWriteKeys(t *testing.T) {
	s := newScreen(t, false)
	s.opts.Jobs = nil
	v := final(t, s.open(t, "project", projectID(s), 140, 30, "tab files", "D delete", "1/"))
	if strings.Contains(v, "u upload") {
		t.Errorf("the project page offers u without the upload job:\n%s", lastLine(v))
	}
	v = final(t, s.open(t, "upload", projectID(s), 140, 30, "cannot upload"))
	if strings.Contains(v, "path:") {
		t.Errorf("the upload page asks for a path without the upload job:\n%s", v)
	}
	final(t, s.open(t, "matters", "", 140, 30, "not available"))
}

// The same console handed the jobs offers them, unless it is read-only:
// read-only decides, in keys.Session, both the keys and the jobs.
func TestJobsHandedOverOnlyToAWritableSession(t *testing.T) {
	w := newScreen(t, false)
	if v := final(t, w.open(t, "project", projectID(w), 140, 30, "tab files", "u upload", "1/")); !strings.Contains(v, "D delete") {
		t.Errorf("a writable session handed the jobs:\n%s", lastLine(v))
	}
	ro := newScreen(t, true) // handed the jobs, as every screen is
	v := final(t, ro.open(t, "project", projectID(ro), 140, 30, "tab files", "1/"))
	if strings.Contains(v, "u upload") || strings.Contains(v, "D delete") {
		t.Errorf("a read-only session handed the jobs offers a write key:\n%s", lastLine(v))
	}
}
