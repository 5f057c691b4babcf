package widgets

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// gutter is the width of the mark column: changed marker and row mark.
const gutter = 2

// fit truncates or pads s to exactly w cells.
func fit(s string, w int, align Align) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	pad := strings.Repeat(" ", w-sw)
	if align == AlignRight {
		return pad + s
	}
	return s + pad
}

// View renders the header, the visible window of rows and an info line.
// Its cost depends on the window height, not on the number of rows.
func (t *Table) View() string {
	var b strings.Builder
	b.WriteString(t.headerLine())
	b.WriteByte('\n')
	h := t.bodyHeight()
	end := min(t.offset+h, len(t.visible))
	rows := make([]Row, 0, end-t.offset)
	for i := t.offset; i < end; i++ {
		rows = append(rows, t.src.Row(t.visible[i]))
	}
	cells, tones := t.windowCells(rows)
	t.drawn.begin(t.widths)
	for k, row := range rows {
		sel := t.offset+k == t.cursor
		b.WriteString(t.cachedLine(row, k, cells, tones, sel, func() string { return t.rowLine(row, k, cells, tones, sel) }))
		b.WriteByte('\n')
	}
	t.drawn.end()
	for i := end - t.offset; i < h; i++ {
		if i == 0 && len(t.visible) == 0 {
			b.WriteString(t.theme.Muted.Render(t.emptyText()))
		}
		b.WriteByte('\n')
	}
	b.WriteString(t.infoLine())
	return b.String()
}

func (t *Table) emptyText() string {
	switch {
	case t.src.Len() > 0:
		return "  no rows match the filter"
	case t.loading != nil && t.loading():
		return "  loading… (the line above says what it waits for)"
	}
	return "  nothing to show"
}

// SetLoading tells the table how to know that its view's load runs: an
// empty table then says it is loading, never "nothing to show" (which
// read as an empty result under "waiting 35s for the vault budget").
func (t *Table) SetLoading(loading func() bool) { t.loading = loading }

func (t *Table) headerLine() string {
	cells := make([]string, 0, len(t.cols))
	for i, c := range t.cols {
		if t.widths == nil || t.widths[i] == 0 {
			continue
		}
		title := t.columnTitle(i)
		if i == t.sortCol {
			title = sortedTitle(title, t.sortDesc, t.widths[i])
		}
		cells = append(cells, fit(title, t.widths[i], c.Align))
	}
	return t.theme.TableHeader.Render(strings.Repeat(" ", gutter) + strings.Join(cells, " "))
}

// sortedTitle is a sorted column's title with its arrow. In a narrow
// column the space before the arrow goes first, then the end of the title:
// the arrow (which order) is never the part cut.
func sortedTitle(title string, desc bool, w int) string {
	arrow := "▲"
	if desc {
		arrow = "▼"
	}
	switch tw := ansi.StringWidth(title); {
	case tw+2 <= w:
		return title + " " + arrow
	case tw+1 <= w:
		return title + arrow
	case w > 1:
		return ansi.Truncate(title, w-1, "") + arrow
	}
	return arrow
}

// rowLine draws row (the k-th of the window) from its cut cells.
func (t *Table) rowLine(row Row, k int, cells [][]string, tones [][]Tone, selected bool) string {
	var b strings.Builder
	mark := " "
	if row.Changed {
		mark = "*"
		if !selected {
			mark = t.theme.Changed.Render(mark)
		}
	}
	b.WriteString(mark)
	if t.marked[row.ID] {
		b.WriteString("+")
	} else {
		b.WriteByte(' ')
	}
	first := true
	for i, c := range t.cols {
		if t.widths == nil || t.widths[i] == 0 {
			continue
		}
		if !first {
			b.WriteByte(' ')
		}
		first = false
		tone := tones[i][k]
		cell := fit(cells[i][k], t.widths[i], c.Align)
		if !selected && tone != ToneNone {
			cell = t.toneStyle(tone).Render(cell)
		}
		b.WriteString(cell)
	}
	if selected {
		// one style over the whole line: inner styles would reset its background
		return t.theme.SelectedRow.Render(b.String())
	}
	if t.marked[row.ID] {
		return t.theme.MarkedRow.Render(b.String())
	}
	return b.String()
}

func (t *Table) toneStyle(tone Tone) lipgloss.Style {
	switch tone {
	case ToneMuted:
		return t.theme.Muted
	case ToneOK:
		return t.theme.OK
	case ToneWarn:
		return t.theme.Warn
	case ToneAlarm:
		return t.theme.Alarm
	}
	return t.theme.Row
}

// infoLine shows the filter input while typing, else the counts, the sort
// and the applied filter.
func (t *Table) infoLine() string {
	if t.filtering {
		return t.input.View()
	}
	// The position changes with every cursor move, so this line is redrawn
	// on each one: it is written unstyled (15 bytes less per key press over
	// SSH), and only the rest of the line is muted.
	pos := "0/0"
	if n := len(t.visible); n > 0 {
		pos = fmt.Sprintf("%d/%d", t.cursor+1, n)
	}
	parts := []string{}
	if n := t.src.Len(); !t.remote && len(t.visible) != n {
		parts = append(parts, fmt.Sprintf("of %d loaded", n))
	}
	if q := t.input.Value(); q != "" {
		s := "filter: " + q
		if t.Pending() {
			s += " …"
		}
		parts = append(parts, s)
	}
	if t.sortCol >= 0 {
		dir := "▲"
		if t.sortDesc {
			dir = "▼"
		}
		parts = append(parts, "sort: "+t.cols[t.sortCol].Title+" "+dir)
	}
	if n := len(t.marked); n > 0 {
		parts = append(parts, fmt.Sprintf("%d marked", n))
	}
	if d := t.domainNote(); d != "" {
		parts = append(parts, d)
	}
	if len(parts) == 0 {
		return ansi.Truncate(pos, max(t.width, 1), "…")
	}
	rest := ansi.Truncate(" · "+strings.Join(parts, " · "), max(t.width-ansi.StringWidth(pos), 0), "…")
	return pos + t.theme.Muted.Render(rest)
}
