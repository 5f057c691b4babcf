package filestatusview

import (
	"slices"
	"time"

	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Clock-dependent cells ("In status", the stuck flag and the status tone)
// are computed when the table renders, for the visible rows only, from
// env.Now. So they keep advancing while the view is shown — also after
// polling has stopped — without an idle timer and without rebuilding
// 100,000 rows: a frame costs the same whatever the number of files. The
// stored cells (as of the last rebuild) remain what the filter searches,
// and "In status" sorts by the time the status was entered, a key that
// does not change with the clock.

// liveColumns wires the render-time cells into the table's columns.
func (m *Model) liveColumns(cols []widgets.Column) []widgets.Column {
	cols[colStatus].Live = m.liveStatus
	cols[colInStatus].Live = m.liveAge
	cols[colFlag].Live = m.liveFlag
	return cols
}

// fileOf finds the state behind a row; nil only if the row is not ours.
func (m *Model) fileOf(r widgets.Row) *filestatus.File {
	if i, ok := m.tr.Index(r.ID); ok {
		return &m.tr.Files[i]
	}
	return nil
}

// stored is the cell as rebuilt, for rows the tracker does not know.
func stored(r widgets.Row, col int) (string, widgets.Tone) {
	var s string
	var t widgets.Tone
	if col < len(r.Cells) {
		s = r.Cells[col]
	}
	if col < len(r.Tones) {
		t = r.Tones[col]
	}
	return s, t
}

func (m *Model) liveStatus(r widgets.Row) (string, widgets.Tone) {
	f := m.fileOf(r)
	if f == nil {
		return stored(r, colStatus)
	}
	if f.Stuck(m.env.Clock(), m.opts.StuckAfter) {
		return statusText(f), widgets.ToneAlarm
	}
	return statusText(f), statusTone(f)
}

func (m *Model) liveAge(r widgets.Row) (string, widgets.Tone) {
	f := m.fileOf(r)
	if f == nil {
		return stored(r, colInStatus)
	}
	now := m.env.Clock()
	text, _ := ageCell(f, now)
	if f.Stuck(now, m.opts.StuckAfter) {
		return text, widgets.ToneAlarm
	}
	return text, widgets.ToneNone
}

func (m *Model) liveFlag(r widgets.Row) (string, widgets.Tone) {
	f := m.fileOf(r)
	if f == nil {
		return stored(r, colFlag)
	}
	if f.Stuck(m.env.Clock(), m.opts.StuckAfter) {
		return flagStuck, widgets.ToneAlarm
	}
	return "", widgets.ToneNone
}

// stuckClock counts stuck files at any instant without scanning them: it
// holds, sorted, the moment each pending file becomes stuck (its Since plus
// the threshold), so the header's count is one binary search per frame.
type stuckClock []int64

// newStuckClock collects the stuck moments of every pending file.
func newStuckClock(files []filestatus.File, after time.Duration) stuckClock {
	if after <= 0 {
		return nil
	}
	var at stuckClock
	for i := range files {
		if t, ok := files[i].StuckAt(after); ok {
			at = append(at, t.UnixNano())
		}
	}
	slices.Sort(at)
	return at
}

// count is the number of files stuck at now (strictly past the threshold,
// as isStuck decides).
func (s stuckClock) count(now time.Time) int {
	n, _ := slices.BinarySearch(s, now.UnixNano())
	return n
}
