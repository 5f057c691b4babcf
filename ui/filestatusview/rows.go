package filestatusview

import (
	"fmt"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Column indexes of the file-status table. The changed mark lives in the
// table's own gutter (widgets.Row.Changed), not in a column.
const (
	colName = iota
	colStatus
	colInStatus
	colFlag
	colID
	numCols
	// colProject follows the others: shown only for the journal's files
	// across projects (projectColumns), so the other layouts keep theirs.
	colProject = numCols
)

// columns are the table's columns; "In status" sorts by duration.
func columns() []widgets.Column {
	return []widgets.Column{
		colName: {Title: "Name", Width: 12, Min: 8, Grow: 3, Priority: 3, Elide: widgets.ElideMiddle, Record: "path"}, // the journal's record says path
		// the status, how long and whether stuck are what the view is for:
		// they outrank a name's width beyond half its need (widgets' layout)
		colStatus:   {Title: "Status", Width: 21, Priority: 1}, // an enum: never truncated (unrecoverable_failure)
		colInStatus: {Title: "In status", Width: 9, Align: widgets.AlignRight, Numeric: true, Priority: 1},
		colFlag:     {Title: "Flag", Width: 5, Priority: 1},
		colID:       {Title: "ID", Width: 36, Priority: 0, ID: true}, // whole or not at all: a UUID's head identifies nothing
	}
}

// projectColumns adds the project column to a layout.
func projectColumns(cols []widgets.Column) []widgets.Column {
	return append(cols, widgets.Column{Title: "Project", Width: 10, Grow: 2})
}

// idColumns is the layout with IDs whole (`i`): the ID takes a UUID's
// width, the free-text name gives way first, the status stays whole.
func idColumns() []widgets.Column {
	cols := columns()
	cols[colName] = widgets.Column{Title: "Name", Width: 0, Grow: 1, Priority: 3, Elide: widgets.ElideMiddle, Record: "path"}
	// asked for whole: the ID outranks the status, the time and the flag
	cols[colID] = widgets.Column{Title: "ID", Width: 36, Priority: 2}
	return cols
}

const flagStuck = "stuck"

// buildRow turns one file's state into a table row. Names were sanitised
// when they arrived and IDs when they were added (tracker), so building a
// row allocates only the cells.
func buildRow(f *filestatus.File, changed bool, now time.Time, stuckAfter time.Duration) widgets.Row {
	cells := make([]string, numCols+1)
	nums := make([]float64, numCols+1)
	tones := make([]widgets.Tone, numCols+1)
	cells[colName] = f.Name
	if f.Path != "" {
		cells[colName] = f.Path
	}
	cells[colProject] = f.Project
	cells[colStatus] = statusText(f)
	cells[colID] = f.ShownID
	tones[colStatus] = statusTone(f)
	cells[colInStatus], nums[colInStatus] = ageCell(f, now)
	if f.Stuck(now, stuckAfter) {
		cells[colFlag] = flagStuck
		tones[colFlag], tones[colStatus], tones[colInStatus] = widgets.ToneAlarm, widgets.ToneAlarm, widgets.ToneAlarm
	}
	return widgets.Row{ID: f.ID, Cells: cells, Nums: nums, Tones: tones, Changed: changed}
}

// ageCell is the "In status" text as of now and its sort key. The key is
// the negated entry time, not the age: it orders rows exactly as the age
// does (youngest first when ascending) but never changes with the clock, so
// a sort stays valid while the rendered ages advance (see live.go).
func ageCell(f *filestatus.File, now time.Time) (string, float64) {
	if !f.Seen || f.Since.IsZero() {
		return "", 0
	}
	age := formatAge(max(0, now.Sub(f.Since)))
	if f.SinceSeen {
		age = "≥" + age // at least: counted from when this console first saw it
	}
	return age, -float64(f.Since.UnixMilli())
}

// statusTone colours the status cell: done is green, failures amber, IDs
// the server does not know muted.
func statusTone(f *filestatus.File) widgets.Tone {
	switch {
	case f.Journal != "":
		return widgets.ToneWarn
	case !f.Seen, f.NotFound, f.Missing, f.Replaced:
		return widgets.ToneMuted
	case f.ErrText != "", f.Status.Is(api.StatusRecoverableFailure), f.Status.Is(api.StatusUnrecoverableFailure), !filestatus.Known(f.Status):
		return widgets.ToneWarn
	case f.Status.Is(api.StatusReadyToQuery), f.Status.Is(api.StatusReadyToReview):
		return widgets.ToneOK
	}
	return widgets.ToneNone
}

// statusText is the status column (records.StatusText: the file's too).
func statusText(f *filestatus.File) string { return records.StatusText(f) }

// group is the triage filter of the view: allGroups, or one of the keys'
// groups (1 ready, 2 processing, 3 stuck, 4 failed, 5 missing).
type group int

const allGroups group = -1

func (g group) shows(t filestatus.Group) bool { return filestatus.FilterShows(g.String(), t) }

func (g group) String() string {
	return [...]string{"", "ready", "processing", "stuck", "failed", "missing"}[max(0, min(int(g), 5))]
}

// formatAge renders a duration compactly for a narrow column: 45s, 12m05s,
// 3h07m, 2d04h.
func formatAge(d time.Duration) string {
	d = d.Truncate(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd%02dh", int(d.Hours())/24, int(d.Hours())%24)
}
