// Package sanitize makes strings that came from the server safe to put on a
// terminal. A project or file name is attacker-controlled: a name carrying an
// OSC 52 sequence could write to the user's clipboard, and a cursor-movement
// sequence could forge what the screen shows. Everything from the network
// passes through here before it is rendered, in the console and the CLI.
package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Line returns s as inert single-line text: escape sequences removed, line
// breaks and tabs turned into spaces, every other control character and
// bidirectional override dropped.
func Line(s string) string { return clean(s, false) }

// Text is Line that keeps line breaks, for multi-line panes (audit data).
func Text(s string) string { return clean(s, true) }

// Output is Text that keeps tabs too: text a user's own --jq expression or
// --template shaped (a TSV row, several lines) loses escape sequences and
// controls but not the layout the user asked for.
func Output(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return cleanKeep(s, true, true)
		}
	}
	return s
}

func clean(s string, keepNewlines bool) string { return cleanKeep(s, keepNewlines, false) }

func cleanKeep(s string, keepNewlines, keepTabs bool) string {
	if isPlain(s) {
		return s // the common case costs one scan and no allocation
	}
	// Invalid UTF-8 could hide a C1 control byte; make every byte a rune first.
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = ansi.Strip(s)
	var b strings.Builder
	b.Grow(len(s))
	joins := false // a rune that may join a cell to the one before, or draw none
	for _, r := range s {
		switch {
		case r == '\n' && keepNewlines, r == '\t' && keepTabs:
			b.WriteRune(r)
		case r == '\n' || r == '\t' || r == '\r':
			b.WriteByte(' ')
		case unicode.IsControl(r), isBidiControl(r):
			// dropped: C0, DEL, C1 (incl. a lone 0x9b CSI) and text-direction tricks
		default:
			joins = joins || mayJoin(r)
			b.WriteRune(r)
		}
	}
	if !joins {
		return b.String() // Latin-1 and Latin Extended: a rune is a cell
	}
	return bound(b.String())
}

// mayJoin says whether r may join the cell before it or draw none, so
// that the text needs bound's pass: not Latin-1 and Latin Extended, nor
// the dashes, quotes, ellipsis and bullets of General Punctuation (names
// and titles are full of them), each a cell of its own.
func mayJoin(r rune) bool {
	switch {
	case r < 0x300:
		return r == 0xAD // the soft hyphen draws nothing
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205E:
		return false
	}
	return true
}

// maxCellRunes is the most code points one cell keeps: the longest emoji
// sequences are 10 (a kiss with two skin tones), a tag flag 7, a letter
// with its accents and tone marks a handful.
const maxCellRunes = 12

// marker stands for what a cell held beyond maxCellRunes.
const marker = "\uFFFD"

// bound keeps what one cell of the terminal shows to at most maxCellRunes
// code points, so that a frame's bytes are bounded by the screen's size
// whatever the data: a name of 100,000 zero-width joiners and 100,000
// combining marks is one cell (its base) to a terminal, yet every frame
// that drew it wrote 500 KB. A grapheme cluster (what a cell shows, as the
// widths lipgloss measures count it) longer than that keeps its first code
// point and a marker; a run of clusters that draw nothing (zero-width
// spaces, joiners, marks with no base) longer than that becomes one marker.
func bound(s string) string {
	var b strings.Builder
	empty := 0 // code points in the current run of clusters of no width
	for rest := s; rest != ""; {
		c, w := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
		if c == "" {
			break
		}
		rest = rest[len(c):]
		n := utf8.RuneCountInString(c)
		switch {
		case w == 0:
			empty += n
			if empty <= maxCellRunes {
				b.WriteString(c)
			} else if empty-n <= maxCellRunes {
				b.WriteString(marker) // once for the run
			}
		case n > maxCellRunes:
			empty = 0
			_, size := utf8.DecodeRuneInString(c)
			b.WriteString(c[:size])
			b.WriteString(marker)
		default:
			empty = 0
			b.WriteString(c)
		}
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII only.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}
