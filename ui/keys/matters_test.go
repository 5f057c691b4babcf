package keys

import "testing"

// The matters view exists only to change the workspace: read-only takes it
// away here, with its keys, not in the view.
func TestMattersNotInReadOnly(t *testing.T) {
	if !New(false).MattersAvailable() {
		t.Fatal("matters unavailable in a normal session")
	}
	ro := New(true)
	if ro.MattersAvailable() || ro.OpenFile.Enabled() || ro.RunDelete.Enabled() || ro.Restore.Enabled() {
		t.Fatal("matters bindings live in a read-only session")
	}
}
