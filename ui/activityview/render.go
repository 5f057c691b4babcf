package activityview

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// eighths are the block characters of a bar's top cell, one eighth of a
// row apart, so a bar of a few rows still tells 8 counts from 9.
var eighths = []rune(" ▁▂▃▄▅▆▇█")

// Bars draws counts as vertical bars, one column each, height rows high,
// scaled to the largest count (a count above zero is at least an eighth
// of a row, so it never looks like none). Column i is drawn in
// palette[tone(i)]; runs of one tone are rendered together, so a frame
// renders a few dozen strings, not one per cell. Row 0 is the top.
func Bars(counts []int, height int, tone func(i int) int, palette []lipgloss.Style) []string {
	peak := 0
	for _, c := range counts {
		peak = max(peak, c)
	}
	levels := make([]int, len(counts)) // in eighths of a row
	for i, c := range counts {
		if c > 0 && peak > 0 {
			levels[i] = max(1, c*height*8/peak)
		}
	}
	rows := make([]string, height)
	var b, run strings.Builder
	for r := range height {
		b.Reset()
		floor := (height - 1 - r) * 8
		cur := -1
		flush := func() {
			if run.Len() > 0 {
				b.WriteString(palette[cur].Render(run.String()))
				run.Reset()
			}
		}
		for i, l := range levels {
			if t := tone(i); t != cur {
				flush()
				cur = t
			}
			run.WriteRune(eighths[min(max(l-floor, 0), 8)])
		}
		flush()
		rows[r] = b.String()
	}
	return rows
}
