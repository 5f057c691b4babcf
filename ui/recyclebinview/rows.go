// Package recyclebinview is the view of deleted projects awaiting purge. The
// row builders here are pure functions of records and a clock, tested
// without a terminal.
package recyclebinview

import (
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Column indexes, so tests and sorting do not depend on magic numbers.
const (
	ColProject = iota
	ColDeletedBy
	ColDeletedAt
	ColPurgeIn
	ColFiles
	ColKB
	ColProjectID // export only: what other commands and the headless --csv name the project by
	numCols
)

// Columns of the recycle-bin table.
func Columns() []widgets.Column {
	return []widgets.Column{
		// names first (two projects must not read the same), then who,
		// then when it goes; the deletion time shortens and the counts go
		// before a name is cut (widgets.layoutWidths)
		{Title: "project", Width: 16, Min: 10, Grow: 3, Priority: 3, Elide: widgets.ElideMiddle},
		{Title: "deleted by", Width: 14, Min: 8, Grow: 2, Priority: 2, Elide: widgets.ElideEmail},
		{Title: "deleted at", Width: 16, Min: 11, Numeric: true, Elide: widgets.ElideDate, ExportTitle: "deleted at (UTC)"},
		{Title: "purge in", Width: 9, Numeric: true, Align: widgets.AlignRight, Priority: 1, ExportAt: "purge at (UTC)"},
		{Title: "files", Width: 6, Numeric: true, Align: widgets.AlignRight},
		// knowledge-base projects, not kilobytes: the file says so in full
		{Title: "kbase", Width: 5, ExportTitle: "knowledge base"},
		{Title: "project id", ExportOnly: true},
	}
}

// binRows shows the entries of a shared set that a session's filters pass:
// source index i is set rank idx[i], or rank i when all shows.
type binRows struct {
	set *binSet
	idx []int32
	all bool // every entry, newest first (idx unused)
	now time.Time
}

// rowsOf shows the entries of ranks idx of set; nil idx: all of them.
func rowsOf(set *binSet, idx []int32, now time.Time) binRows {
	return binRows{set: set, idx: idx, all: idx == nil, now: now}
}

func (s binRows) Len() int {
	if s.all {
		return s.set.Len()
	}
	return len(s.idx)
}

func (s binRows) entry(i int) *api.RecycleBinEntry {
	if s.all {
		return s.set.at(i)
	}
	return s.set.at(int(s.idx[i]))
}

func (s binRows) ID(i int) string { return s.entry(i).ID }

func (s binRows) Row(i int) widgets.Row {
	cells := make([]string, numCols)
	nums := make([]float64, numCols)
	for c := range cells {
		cells[c], nums[c] = s.Text(i, c), s.Num(i, c)
	}
	var tones []widgets.Tone // only rows that are highlighted pay for it
	e := s.entry(i)
	if _, tone := PurgeIn(e.RecycleBinPurgedScheduledAt.Time, s.now); tone != widgets.ToneNone {
		tones = []widgets.Tone{ColPurgeIn: tone}
	}
	return widgets.Row{ID: e.ID, Cells: cells, Nums: nums, Tones: tones}
}

func (s binRows) Text(i, col int) string {
	e := s.entry(i)
	switch col {
	case ColProject:
		return sanitize.Line(e.VaultProject.Name)
	case ColDeletedBy:
		return sanitize.Line(e.DeletedByUserEmail)
	case ColDeletedAt:
		if e.DeletedAt.Invalid() {
			return "invalid"
		}
		return stamp(e.DeletedAt.Time)
	case ColPurgeIn:
		if e.RecycleBinPurgedScheduledAt.Invalid() {
			return "invalid"
		}
		text, _ := PurgeIn(e.RecycleBinPurgedScheduledAt.Time, s.now)
		return text
	case ColFiles:
		return e.VaultProject.FilesCount.String()
	case ColKB:
		if e.VaultProject.IsKnowledgeBaseProject {
			return "✓"
		}
	case ColProjectID:
		return projectID(e)
	}
	return ""
}

// projectID is the entry's project's ID (what other commands take), else
// the entry's resource ID.
func projectID(e *api.RecycleBinEntry) string {
	if e.VaultProject.ID != "" {
		return sanitize.Line(e.VaultProject.ID)
	}
	return sanitize.Line(e.ResourceID)
}

// Num: the purge column sorts by the scheduled time (time-invariant: the
// same order as the time left) and is drawn live (PurgeLive).
func (s binRows) Num(i, col int) float64 {
	e := s.entry(i)
	switch col {
	case ColDeletedAt:
		return float64(e.DeletedAt.Unix())
	case ColPurgeIn:
		return purgeKey(e.RecycleBinPurgedScheduledAt.Time)
	case ColFiles:
		return float64(e.VaultProject.FilesCount)
	}
	return 0
}

// purgeKey is the purge column's sort key: the scheduled time in Unix
// seconds, 0 when unknown.
func purgeKey(at time.Time) float64 {
	if at.IsZero() {
		return 0
	}
	return float64(at.Unix())
}

// PurgeLive draws the purge column at render time from the row's sort key,
// so the countdown follows the clock for the visible rows only.
func PurgeLive(now func() time.Time) func(widgets.Row) (string, widgets.Tone) {
	return func(r widgets.Row) (string, widgets.Tone) {
		if ColPurgeIn >= len(r.Nums) || r.Nums[ColPurgeIn] == 0 {
			return PurgeIn(time.Time{}, now())
		}
		return PurgeIn(time.Unix(int64(r.Nums[ColPurgeIn]), 0), now())
	}
}

// PurgeIn is the countdown to the scheduled purge (purge.Countdown) and
// how loudly to show it: amber under 7 days, red under 24 hours (and when
// overdue), muted when nothing says when it goes.
func PurgeIn(at, now time.Time) (string, widgets.Tone) {
	text, u := purge.Countdown(at, now)
	return text, urgencyTone[u]
}

var urgencyTone = [...]widgets.Tone{
	purge.Unscheduled: widgets.ToneMuted,
	purge.Later:       widgets.ToneNone,
	purge.WithinWeek:  widgets.ToneWarn,
	purge.WithinDay:   widgets.ToneAlarm,
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04")
}
