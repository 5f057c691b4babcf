// Package recyclebin is the view of deleted projects awaiting purge. The
// row builders here are pure functions of records and a clock, tested
// without a terminal.
package recyclebin

import (
	"cmp"
	"slices"
	"strconv"
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
)

// Columns of the recycle-bin table.
func Columns() []widgets.Column {
	return []widgets.Column{
		{Title: "project", Width: 16, Grow: 3},
		{Title: "deleted by", Width: 14, Grow: 2},
		{Title: "deleted at", Width: 16, Numeric: true},
		{Title: "purge in", Width: 9, Numeric: true, Align: widgets.AlignRight},
		{Title: "files", Width: 6, Numeric: true, Align: widgets.AlignRight},
		{Title: "KB", Width: 2},
	}
}

// SortNewestFirst orders entries by deleted_at, newest first, whatever
// order the server sent (ties keep the server's order).
func SortNewestFirst(items []api.RecycleBinEntry) {
	slices.SortStableFunc(items, func(a, b api.RecycleBinEntry) int {
		return cmp.Compare(b.DeletedAt.UnixNano(), a.DeletedAt.UnixNano())
	})
}

// Source is the table's view of entries: rows are built from the records
// when the table needs them (the visible window, a sort key, the first
// filter), so the page holds the records and nothing per row besides. now
// is the load time, which the purge text of the filter haystacks uses (the
// column itself is drawn live).
func Source(items []api.RecycleBinEntry, now time.Time) widgets.RowSource {
	return binRows{items: items, now: now}
}

type binRows struct {
	items []api.RecycleBinEntry
	now   time.Time
}

func (s binRows) Len() int        { return len(s.items) }
func (s binRows) ID(i int) string { return s.items[i].ID }

func (s binRows) Row(i int) widgets.Row {
	cells := make([]string, ColKB+1)
	nums := make([]float64, ColKB+1)
	for c := range cells {
		cells[c], nums[c] = s.Text(i, c), s.Num(i, c)
	}
	var tones []widgets.Tone // only rows that are highlighted pay for it
	if _, tone := PurgeIn(s.items[i].RecycleBinPurgedScheduledAt.Time, s.now); tone != widgets.ToneNone {
		tones = []widgets.Tone{ColPurgeIn: tone}
	}
	return widgets.Row{ID: s.items[i].ID, Cells: cells, Nums: nums, Tones: tones}
}

func (s binRows) Text(i, col int) string {
	e := &s.items[i]
	switch col {
	case ColProject:
		return sanitize.Line(e.VaultProject.Name)
	case ColDeletedBy:
		return sanitize.Line(e.DeletedByUserEmail)
	case ColDeletedAt:
		return stamp(e.DeletedAt.Time)
	case ColPurgeIn:
		text, _ := PurgeIn(e.RecycleBinPurgedScheduledAt.Time, s.now)
		return text
	case ColFiles:
		return strconv.FormatInt(int64(e.VaultProject.FilesCount), 10)
	case ColKB:
		if e.VaultProject.IsKnowledgeBaseProject {
			return "✓"
		}
	}
	return ""
}

// Num: the purge column sorts by the scheduled time (time-invariant: the
// same order as the time left) and is drawn live (PurgeLive).
func (s binRows) Num(i, col int) float64 {
	e := &s.items[i]
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
