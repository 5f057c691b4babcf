package filestatusview

import (
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"strings"
	"testing"
	"time"
)

// TestStuckOnFirstDisplayFromUploadTime: a file uploaded ten hours ago and
// still processing is flagged stuck the moment it is first shown, its age
// counted from the upload time; a file whose upload time is unknown shows
// its age since first seen, marked as such.
func TestStuckOnFirstDisplayFromUploadTime(t *testing.T) {
	fake := newFake()
	fake.set("processing", "old", "unknown")
	r := newRig(t, fake, "old,unknown", Options{
		StuckAfter: 30 * time.Minute,
		UploadedAt: map[string]time.Time{"old": t0.Add(-10 * time.Hour)},
	})
	r.run(r.m.Init())
	v := r.m.View()
	var oldLine, unknownLine string
	for _, l := range strings.Split(v, "\n") {
		switch {
		case strings.Contains(l, "old.pdf"):
			oldLine = l
		case strings.Contains(l, "unknown.pdf"):
			unknownLine = l
		}
	}
	if !strings.Contains(oldLine, "10h00m") || !strings.Contains(oldLine, "stuck") {
		t.Errorf("old processing file not flagged stuck at once: %q\n%s", oldLine, v)
	}
	if !strings.Contains(unknownLine, "≥0s") || strings.Contains(unknownLine, "stuck") {
		t.Errorf("first-seen age not marked: %q", unknownLine)
	}
	if !strings.Contains(v, "stuck 1") || !strings.Contains(v, "processing 1") {
		t.Errorf("summary:\n%s", v)
	}
}

// TestGroupsSummaryAndFilterKeys: the summary line counts every group and
// a digit key shows one group only.
func TestGroupsSummaryAndFilterKeys(t *testing.T) {
	fake := newFake()
	fake.set("ready_to_query", "r1", "r2")
	fake.set("processing", "p1", "s1")
	fake.set("recoverable_failure", "f1")
	fake.set("unrecoverable_failure", "f2")
	r := newRig(t, fake, "r1,r2,p1,s1,f1,f2,gone", Options{
		StuckAfter: 30 * time.Minute,
		UploadedAt: map[string]time.Time{"s1": t0.Add(-time.Hour)},
	})
	r.run(r.m.Init())
	want := "ready 2 · processing 1 · stuck 1 · failed 2 (recoverable 1, unrecoverable 1) · missing 1"
	if v := r.m.View(); !strings.Contains(v, want) {
		t.Fatalf("summary lacks %q:\n%s", want, v)
	}
	for _, c := range []struct {
		key         string
		show, avoid []string
	}{
		{"3", []string{"s1.pdf"}, []string{"p1.pdf", "r1.pdf"}},
		{"4", []string{"f1.pdf", "f2.pdf"}, []string{"s1.pdf"}},
		{"1", []string{"r1.pdf", "r2.pdf"}, []string{"f1.pdf"}},
		{"5", []string{"gone"}, []string{"r1.pdf"}},
		{"0", []string{"r1.pdf", "s1.pdf", "f2.pdf"}, nil},
	} {
		r.key(runes(c.key))
		v := r.m.View()
		for _, s := range c.show {
			if !strings.Contains(v, s) {
				t.Errorf("key %s: %s not shown:\n%s", c.key, s, v)
			}
		}
		for _, s := range c.avoid {
			if strings.Contains(v, s) {
				t.Errorf("key %s: %s shown:\n%s", c.key, s, v)
			}
		}
	}
}

// The Files tab hands IDs over as ID@UPLOADED (epoch seconds, the
// listing's own time): the age comes from the service at once.
func TestUploadTimesInTheArgument(t *testing.T) {
	fake := newFake()
	fake.set("processing", "old")
	r := newRig(t, fake, fmt.Sprintf("old@%d", t0.Add(-5*time.Hour).Unix()), Options{})
	r.run(r.m.Init())
	if l := lineWith(r.m.View(), "old.pdf"); !strings.Contains(l, "5h00m") || !strings.Contains(l, "stuck") {
		t.Errorf("row %q", l)
	}
	if len(fake.calls) == 0 || fake.calls[0][0] != "old" {
		t.Errorf("asked for %v", fake.calls)
	}
}

// At 80 columns the ID column is cut; `i` shows IDs whole (the name gives
// way), `i` again goes back. The status never truncates in either layout.
func TestIDColumnToggleAt80(t *testing.T) {
	fake := newFake()
	id := "3f2b8c1e-9a4d-4e6f-8b2a-1c5d7e9f0a3b"
	fake.set("unrecoverable_failure", id)
	r := newRig(t, fake, id, Options{})
	r.m.SetSize(80, 20)
	r.run(r.m.Init())
	// the fake names the file after its ID ("ID.pdf"): the ID column is
	// the ID not followed by the name's extension
	idColumn := func(v string) bool { return strings.Contains(strings.ReplaceAll(v, id+".pdf", ""), id) }
	v := r.m.View()
	if idColumn(v) || !strings.Contains(v, "unrecoverable_failure") {
		t.Fatalf("at 80 columns (before i):\n%s", v)
	}
	r.key(runes("i"))
	v = r.m.View()
	if !idColumn(v) || !strings.Contains(v, "unrecoverable_failure") {
		t.Errorf("after i the ID is not whole:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line wider than 80: %q", l)
		}
	}
	r.key(runes("i"))
	if v := r.m.View(); idColumn(v) {
		t.Errorf("i again should give the name its room back:\n%s", v)
	}
}

// Issue 19 case 9: a recoverable failure held for days is in the failed
// group only: its row is not flagged stuck, group 3 does not list it, and
// it does not take a fresh processing file's place in the stuck count.
func TestFailedFileIsNeverStuck(t *testing.T) {
	fake := newFake()
	fake.set("recoverable_failure", "skel")
	fake.set("processing", "fresh")
	r := newRig(t, fake, "skel,fresh", Options{
		StuckAfter: 30 * time.Minute,
		UploadedAt: map[string]time.Time{"skel": t0.Add(-5 * 24 * time.Hour), "fresh": t0},
	})
	r.run(r.m.Init())
	v := r.m.View()
	want := "ready 0 · processing 1 · stuck 0 · failed 1 (recoverable 1, unrecoverable 0)"
	if !strings.Contains(v, want) {
		t.Errorf("summary lacks %q:\n%s", want, v)
	}
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "skel.pdf") && strings.Contains(l, "stuck") {
			t.Errorf("failed file flagged stuck: %q", l)
		}
	}
	r.key(runes("3"))
	if v := r.m.View(); strings.Contains(v, "skel.pdf") {
		t.Errorf("group 3 (stuck) lists the failed file:\n%s", v)
	}
	r.key(runes("4"))
	if v := r.m.View(); !strings.Contains(v, "skel.pdf") {
		t.Errorf("group 4 (failed) lacks the failed file:\n%s", v)
	}
}

// Issue 19 case 8: at 80 and 120 columns the summary and the polling line
// keep every number and reason whole ("failed 1 (recovera…" was cut at the
// edge): decoration goes first, then the lines wrap, and the table gives
// up the lines they take, so the page still fits its height.
func TestSummaryNeverCutsANumber(t *testing.T) {
	fake := newFake()
	fake.set("ready_to_query", "r1")
	fake.set("processing", "p1", "s1")
	fake.set("recoverable_failure", "f1")
	fake.set("unrecoverable_failure", "f2")
	for _, size := range [][2]int{{80, 24}, {120, 40}, {60, 20}} {
		r := newRig(t, fake, "r1,p1,s1,f1,f2,gone", Options{
			StuckAfter: 30 * time.Minute,
			UploadedAt: map[string]time.Time{"s1": t0.Add(-time.Hour)},
		})
		r.m.SetSize(size[0], size[1])
		r.run(r.m.Init())
		r.key(runes("4")) // a group shown: one more part
		v := r.m.View()
		lines := strings.Split(v, "\n")
		if len(lines) > size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		head := strings.Join(lines[:4], " ")
		for _, want := range []string{"6 files", "ready 1", "processing 1", "stuck 1", "failed 2 (recoverable 1, unrecoverable 1)", "missing 1", "showing failed"} {
			if !strings.Contains(strings.Join(strings.Fields(head), " "), want) {
				t.Errorf("%dx%d: %q missing or cut:\n%s", size[0], size[1], want, v)
			}
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
		if !strings.Contains(v, "f1.pdf") || !strings.Contains(v, "f2.pdf") {
			t.Errorf("%dx%d: rows gone:\n%s", size[0], size[1], v)
		}
	}
}
