package filestatusview

import (
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

func TestParseIDs(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", []string{}},
		{"commas", "a,b,c", []string{"a", "b", "c"}},
		{"spaces and commas", " a , b,,c ", []string{"a", "b", "c"}},
		{"crlf lines", "a\r\nb\r\nc\r\n", []string{"a", "b", "c"}},
		{"bom", "\uFEFFa\nb", []string{"a", "b"}},
		{"bom mid-paste", "a\n\uFEFFb", []string{"a", "b"}},
		{"tabs semicolons", "a\tb;c", []string{"a", "b", "c"}},
		{"quoted csv", `"a","b"`, []string{"a", "b"}},
		{"duplicates keep first order", "b,a,b,a", []string{"b", "a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ParseIDs(c.in)
			if !slices.Equal(got, c.want) {
				t.Errorf("ParseIDs(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func detail(id, status string) api.FileDetail {
	return api.FileDetail{FileID: id, FileName: "name-" + id, ProcessingStatus: api.Status(status)}
}

func TestTrackerMissingAnswerIsShownSo(t *testing.T) {
	tr := filestatus.NewTracker([]string{"a", "b"}, sanitize.Line)
	tr.Apply([]string{"a", "b"}, []api.FileDetail{detail("a", "processing")}, t0)
	if got := statusText(&tr.Files[1]); got != "no answer" {
		t.Errorf("status = %q", got)
	}
}

func TestBuildRow(t *testing.T) {
	stuckAfter := 30 * time.Minute
	cases := []struct {
		name       string
		f          filestatus.File
		now        time.Time
		wantStatus string
		wantAge    string
		wantStuck  bool
	}{
		{"unseen", filestatus.File{ID: "x"}, t0, "…", "", false},
		{"processing fresh", filestatus.File{Seen: true, Status: "processing", Since: t0}, t0.Add(5 * time.Minute), "processing", "5m00s", false},
		{"processing stuck", filestatus.File{Seen: true, Status: "processing", Since: t0}, t0.Add(31 * time.Minute), "processing", "31m00s", true},
		{"uploaded stuck", filestatus.File{Seen: true, Status: "UPLOADED", Since: t0}, t0.Add(2 * time.Hour), "uploaded", "2h00m", true},
		{"ready never stuck", filestatus.File{Seen: true, Status: "ready_to_query", Since: t0}, t0.Add(48 * time.Hour), "ready_to_query", "2d00h", false},
		{"not found", filestatus.File{Seen: true, NotFound: true, Since: t0}, t0.Add(time.Hour), "not found", "1h00m", false},
		{"other error", filestatus.File{Seen: true, ErrText: "forbidden", Since: t0}, t0, "error: forbidden", "0s", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := buildRow(&c.f, false, c.now, stuckAfter)
			stuck := r.Cells[colFlag] == flagStuck
			if r.Cells[colStatus] != c.wantStatus || r.Cells[colInStatus] != c.wantAge || stuck != c.wantStuck {
				t.Errorf("row = %q stuck=%v, want status %q age %q stuck %v", r.Cells, stuck, c.wantStatus, c.wantAge, c.wantStuck)
			}
			if stuck != (r.Tones[colFlag] == widgets.ToneAlarm) {
				t.Errorf("flag tone %v disagrees with stuck=%v", r.Tones[colFlag], stuck)
			}
		})
	}
}

func TestNamesSanitisedOnArrival(t *testing.T) {
	tr := filestatus.NewTracker([]string{"a"}, sanitize.Line)
	tr.Apply([]string{"a"}, []api.FileDetail{{FileID: "a", FileName: "memo\x1b]52;c;ZXZpbA==\x07\x1b[2J.pdf", ProcessingStatus: "processing\x1b[31m"}}, t0)
	r := buildRow(&tr.Files[0], false, t0, time.Hour)
	if r.Cells[colName] != "memo.pdf" || r.Cells[colStatus] != "processing" {
		t.Errorf("cells = %q", r.Cells)
	}
}

func TestFormatAge(t *testing.T) {
	cases := map[time.Duration]string{
		0:                                     "0s",
		59*time.Second + 900*time.Millisecond: "59s",
		61 * time.Second:                      "1m01s",
		3*time.Hour + 7*time.Minute:           "3h07m",
		52 * time.Hour:                        "2d04h",
	}
	for d, want := range cases {
		if got := formatAge(d); got != want {
			t.Errorf("formatAge(%v) = %q, want %q", d, got, want)
		}
	}
}

// Project names come from the journal query as the server's strings: the
// console's tracker cleans them once, as it does every other string.
func TestJournalProjectNamesCleaned(t *testing.T) {
	tr := filestatus.NewTracker(nil, sanitize.Line)
	tr.AddJournal([]store.JournalFile{{ID: 7, ProjectID: "p1", Path: "a\x1b[2J.pdf", State: "pending"}},
		map[string]string{"p1": "Alpha\x1b]52;c;ZXZpbA==\x07"})
	f := tr.Files[0]
	if f.Project != "Alpha" || f.Path != "a.pdf" {
		t.Errorf("project %q path %q", f.Project, f.Path)
	}
}
