package widgets

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// A summary or status line says things a user acts on (counts, a reason,
// a budget) beside decoration (a title, a hint, an age). When the line is
// wider than the terminal, cutting it at the edge cuts a number or a
// reason in half ("failed 1 (recovera…"). Fit never does: decoration goes
// first, then the line wraps between its parts.

// Part is one item of a summary line.
type Part struct {
	Text string // may carry styles
	// Keep marks what the user acts on (a number, a reason): it wraps to
	// another line rather than being dropped or cut.
	Keep bool
}

// Keep and Deco build parts.
func Keep(s string) Part { return Part{Text: s, Keep: true} }

// Deco is a part that may be dropped when the line is too narrow.
func Deco(s string) Part { return Part{Text: s} }

// Sep is what Fit puts between parts.
const Sep = " · "

// Fit lays parts out in width columns, joined by Sep. When they do not fit
// on one line, the parts not marked Keep are dropped, last first; when the
// kept ones still do not fit, they wrap between parts, and a part wider
// than width alone wraps at its spaces. Nothing kept is cut or lost.
// Empty parts are skipped; width <= 0 means one line of any width.
func Fit(width int, parts ...Part) []string {
	shown := make([]Part, 0, len(parts))
	for _, p := range parts {
		if p.Text != "" {
			shown = append(shown, p)
		}
	}
	if width <= 0 || lineWidth(shown) <= width {
		return []string{join(shown)}
	}
	for i := len(shown) - 1; i >= 0 && lineWidth(shown) > width; i-- {
		if !shown[i].Keep {
			shown = append(shown[:i], shown[i+1:]...)
		}
	}
	var lines []string
	var cur []string
	curW, sepW := 0, ansi.StringWidth(Sep)
	flush := func() {
		if len(cur) > 0 {
			lines = append(lines, strings.Join(cur, Sep))
			cur, curW = nil, 0
		}
	}
	for _, p := range shown {
		w := ansi.StringWidth(p.Text)
		switch {
		case len(cur) > 0 && curW+sepW+w <= width:
			cur, curW = append(cur, p.Text), curW+sepW+w
		case w <= width:
			flush()
			cur, curW = []string{p.Text}, w
		default: // wider than the terminal alone: wrapped at its spaces
			flush()
			lines = append(lines, WrapSpaces(p.Text, width)...)
		}
	}
	flush()
	return lines
}

func lineWidth(parts []Part) int {
	w := 0
	for i, p := range parts {
		if i > 0 {
			w += ansi.StringWidth(Sep)
		}
		w += ansi.StringWidth(p.Text)
	}
	return w
}

func join(parts []Part) string {
	s := make([]string, len(parts))
	for i, p := range parts {
		s[i] = p.Text
	}
	return strings.Join(s, Sep)
}

// WrapSpaces wraps s at its spaces into lines of at most width columns;
// a word wider than width alone is broken. Unlike ansi.Wrap it never
// breaks at a hyphen, so an ID (a UUID) or a path stays whole to copy.
func WrapSpaces(s string, width int) []string {
	if width <= 0 || ansi.StringWidth(s) <= width {
		return []string{s}
	}
	var lines []string
	cur, curW := "", 0
	for _, word := range strings.Split(s, " ") {
		w := ansi.StringWidth(word)
		switch {
		case curW > 0 && curW+1+w <= width:
			cur, curW = cur+" "+word, curW+1+w
		case w <= width:
			if curW > 0 || cur != "" {
				lines = append(lines, cur)
			}
			cur, curW = word, w
		default:
			if curW > 0 {
				lines = append(lines, cur)
			}
			parts := strings.Split(ansi.Hardwrap(word, width, true), "\n")
			lines = append(lines, parts[:len(parts)-1]...)
			cur = parts[len(parts)-1]
			curW = ansi.StringWidth(cur)
		}
	}
	return append(lines, cur)
}
