package topics

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Style is where a topic is printed.
type Style struct {
	// Terminal: a person reads it, so it is re-wrapped to Width, the
	// marks are taken away and headings and **strong** are bold. Otherwise
	// (a pipe, a file, TERM=dumb) the Markdown is printed as written.
	Terminal bool
	Width    int // columns; below 40 or unknown: 80. Text is kept to 100 at most.
}

// The SGR attributes used: bold and underline only, never a colour, so
// NO_COLOR (which asks for no colour) has nothing to take away.
const (
	bold      = "\x1b[1m"
	underline = "\x1b[4m"
	reset     = "\x1b[0m"
)

// Render is the topic's text for s.
func (t Topic) Render(s Style) string { return render(t.Markdown(), s) }

func render(md string, s Style) string {
	if !s.Terminal {
		return md
	}
	width := s.Width
	if width < 40 {
		width = 80
	}
	width = min(width, 100)
	var b strings.Builder
	blocks := parse(md)
	for i, bl := range blocks {
		if i > 0 && !(bl.kind == item && blocks[i-1].kind == item) {
			b.WriteString("\n")
		}
		switch bl.kind {
		case heading:
			on := bold
			if bl.level == 1 {
				on = bold + underline
			}
			b.WriteString(wrap(eachWord(plainText(bl.text), on), width, "", ""))
		case paragraph:
			b.WriteString(wrap(styled(bl.text), width, "", ""))
		case item:
			pad, bullet := strings.Repeat("  ", bl.level), "•"
			if bl.marker != "" {
				bullet = bl.marker
			}
			b.WriteString(wrap(styled(bl.text), width, pad+bullet+" ", pad+strings.Repeat(" ", len(bullet)+1)))
		case code:
			for _, l := range bl.lines {
				b.WriteString("    " + l + "\n")
			}
		case table:
			writeTable(&b, bl.rows, width, styled, bold)
		}
	}
	return b.String()
}

// styled is text with its **strong** spans in bold and its `code` spans
// plain: a terminal page of literals in bold reads as shouting.
func styled(text string) string {
	var b strings.Builder
	for _, sp := range spans(text) {
		if sp.strong {
			b.WriteString(eachWord(sp.text, bold))
			continue
		}
		b.WriteString(sp.text)
	}
	return b.String()
}

// eachWord sets each word of text in the attribute on, apart, so that a
// wrapped line never carries an open attribute into the margin of the next.
func eachWord(text, on string) string {
	words := strings.Split(text, " ")
	for i, w := range words {
		if w != "" {
			words[i] = on + w + reset
		}
	}
	return strings.Join(words, " ")
}

// plainText is text without its marks.
func plainText(text string) string {
	var b strings.Builder
	for _, sp := range spans(text) {
		b.WriteString(sp.text)
	}
	return b.String()
}

// wrap fills text into lines of width columns, the first starting with
// first and the rest with rest (a list item's bullet and its hanging
// indent). Lines break at spaces only, never inside a word ("--base-url"
// stays whole); a word wider than the line stays whole on a line of its own.
func wrap(text string, width int, first, rest string) string {
	var b strings.Builder
	line, lineWidth := first, ansi.StringWidth(first)
	empty := true
	for _, w := range strings.Fields(text) {
		ww := ansi.StringWidth(w)
		if !empty && lineWidth+1+ww > width {
			b.WriteString(line + "\n")
			line, lineWidth, empty = rest, ansi.StringWidth(rest), true
		}
		if !empty {
			line, lineWidth = line+" ", lineWidth+1
		}
		line, lineWidth, empty = line+w, lineWidth+ww, false
	}
	b.WriteString(line + "\n")
	return b.String()
}

// writeTable writes a table as a list, which a narrow terminal or a man
// page can show whatever the cells hold: each row's first cell as a label,
// then its other cells indented under it, named by their column when there
// are more than two columns.
func writeTable(b *strings.Builder, rows [][]string, width int, style func(string) string, on string) {
	if len(rows) == 0 {
		return
	}
	header := rows[0]
	for r, row := range rows[1:] {
		if r > 0 {
			b.WriteString("\n")
		}
		label := ""
		if len(row) > 0 {
			label = row[0]
		}
		b.WriteString(wrap(eachWord(plainText(label), on), width, "  ", "  "))
		for c := 1; c < len(row); c++ {
			cell := style(row[c])
			if len(header) > 2 && c < len(header) && header[c] != "" {
				cell = plainText(header[c]) + ": " + cell
			}
			b.WriteString(wrap(cell, width, "      ", "      "))
		}
	}
}
