package filestatusview

import (
	"strings"
	"testing"
	"time"
)

// Seen by hand over serve at 60x16 after the layout gave names the room
// first (3c431a9): file status showed the two stuck files' names and
// 'processing', and neither how long nor that they were stuck; after a
// re-upload, the status went too. The status, the time in status and the
// flag are what the view is for, so they outrank the name's width beyond
// half its need (the name keeps what it had before: 20 cells at 60).
func TestNarrowFileStatusKeepsTimeAndFlag(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a", "b")
	fake.names["a"] = "Witness Statement of A. Okafor (first draft, redacted).pdf"
	fake.names["b"] = "Witness Statement of A. Okafor (first draft, unredacted).pdf"
	r := newRig(t, fake, "a,b", Options{
		StuckAfter: 30 * time.Minute,
		UploadedAt: map[string]time.Time{"a": t0.Add(-16 * time.Minute), "b": t0.Add(-40 * time.Minute)},
	})
	r.m.SetSize(60, 16)
	r.run(r.m.Init())
	v := r.m.View()
	line := lineWith(v, "nredacted).pdf")
	if !strings.Contains(line, "40m") || !strings.Contains(line, "stuck") || !strings.Contains(line, "processing") {
		t.Errorf("at 60 columns the row lost its status, its time in status or its flag: %q\n%s", line, v)
	}
	if !strings.Contains(line, "Witne") {
		t.Errorf("the name gave way entirely: %q", line)
	}
}
