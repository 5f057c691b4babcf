package keys

import (
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// The matters view exists only to change the workspace: read-only takes it
// away here, with its keys, not in the view.
func TestMattersNotInReadOnly(t *testing.T) {
	if !NewSession(Session{Jobs: true}).MattersAvailable() {
		t.Fatal("matters unavailable in a normal session")
	}
	ro := NewSession(Session{ReadOnly: true, Jobs: true})
	if ro.MattersAvailable() || ro.OpenFile.Enabled() || ro.RunDelete.Enabled() || ro.Restore.Enabled() {
		t.Fatal("matters bindings live in a read-only session")
	}
}

// A session handed no write job (serve; a caller that gives none) binds no
// key that would start one, read-only or not: the footer and help cannot
// offer what the session cannot run. A read-only session handed the jobs
// runs none of them either (Session.RunsJobs), so the console does not
// hand them over. The project deletion is no job: read-only alone decides it.
func TestNoJobKeysWithoutJobs(t *testing.T) {
	for _, s := range []Session{{}, {ReadOnly: true, Jobs: true}} {
		m := NewSession(s)
		for name, b := range map[string]key.Binding{"upload": m.Upload, "re-upload": m.Reupload, "open a matter file": m.OpenFile,
			"delete matters": m.RunDelete, "restore matters": m.Restore} {
			if b.Enabled() || m.Binds(b.Keys()[0]) {
				t.Errorf("%+v: %s is bound", s, name)
			}
		}
		if m.MattersAvailable() || s.RunsJobs() {
			t.Errorf("%+v: the matters view or the jobs are available", s)
		}
	}
	if m := New(false); !m.Delete.Enabled() || m.Upload.Enabled() {
		t.Error("without jobs, a writable session keeps D (delete project) and has no u")
	}
	if !(Session{Jobs: true}).RunsJobs() {
		t.Error("a writable session handed the jobs runs them")
	}
}
