package widgets

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// hang is how much further than its line's indentation a wrapped line's
// continuation starts, so it reads as the same line, not as the next key.
const hang = 2

// wrapIndented wraps text to width, each line's continuations under its own
// indentation (plus hang): indented JSON in a detail pane keeps its shape
// when a long value wraps, where a plain wrap restarted it at column 0. An
// indentation past half the width is capped there, so deep nesting still
// leaves room for the text. Lines are otherwise wrapped as ansi.Wrap does
// (at spaces, long words broken), styles kept.
func wrapIndented(text string, width int) string {
	width = max(width, 1)
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if ansi.StringWidth(line) <= width {
			b.WriteString(line)
			continue
		}
		body := strings.TrimLeft(line, " ")
		lead := len(line) - len(body)
		cont := min(lead+hang, width/2)
		lead = min(lead, cont)
		for j, part := range strings.Split(ansi.Wrap(body, max(width-cont, 1), ""), "\n") {
			if j > 0 {
				b.WriteByte('\n')
				b.WriteString(strings.Repeat(" ", cont))
			} else {
				b.WriteString(strings.Repeat(" ", lead))
			}
			b.WriteString(part)
		}
	}
	return b.String()
}

// FitHeight pads or cuts s to exactly h lines, so what is drawn below it
// (the status line, a footer) stays put whatever the body's length.
func FitHeight(s string, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
