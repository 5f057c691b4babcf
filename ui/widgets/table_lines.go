package widgets

import "slices"

// lineCache keeps the lines of the last frame drawn, keyed by everything a
// line is drawn from (its cut cells, their tones, the row's marks and
// whether it is selected), so that a cursor move redraws only the two rows
// whose selection changed: fitting and styling a line costs most of a key
// press (issue 46's profile of the bin: rowLine and lipgloss's Render were
// half of View). It holds one frame's lines at most: each View keeps only
// the lines it drew, and a change of the column widths empties it.
type lineCache struct {
	widths []int
	lines  map[string]string
	next   map[string]string
	fresh  int    // lines the last frame drew anew (a test's measure of the reuse)
	key    []byte // reused between lines (a Builder must not be copied with the table)
}

// begin starts a frame drawn with widths.
func (c *lineCache) begin(widths []int) {
	if !slices.Equal(c.widths, widths) {
		c.widths = slices.Clone(widths)
		c.lines = nil
	}
	c.next = make(map[string]string, len(c.lines)+1)
	c.fresh = 0
}

// end makes the frame's lines the ones the next frame may reuse.
func (c *lineCache) end() { c.lines, c.next = c.next, nil }

// cachedLine is row k's line, drawn by draw unless the last frame drew the same.
func (t *Table) cachedLine(row Row, k int, cells [][]string, tones [][]Tone, selected bool, draw func() string) string {
	c := &t.drawn
	c.key = c.key[:0]
	flags := byte('0')
	if selected {
		flags |= 1
	}
	if t.marked[row.ID] {
		flags |= 2
	}
	if row.Changed {
		flags |= 4
	}
	c.key = append(c.key, flags)
	for i := range t.cols {
		if t.widths == nil || t.widths[i] == 0 {
			continue
		}
		c.key = append(c.key, byte('a'+tones[i][k]))
		c.key = append(c.key, cells[i][k]...)
		c.key = append(c.key, 0)
	}
	line, ok := c.lines[string(c.key)] // the lookup does not allocate the key
	if !ok {
		line = draw()
		c.fresh++
	}
	c.next[string(c.key)] = line
	return line
}
