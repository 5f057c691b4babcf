// Package sanitize makes strings that came from the server safe to put on a
// terminal. A project or file name is attacker-controlled: a name carrying an
// OSC 52 sequence could write to the user's clipboard, and a cursor-movement
// sequence could forge what the screen shows. Everything from the network
// passes through here before it is rendered, in the console and the CLI.
package sanitize

import (
	"strings"
	"unicode"

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
	for _, r := range s {
		switch {
		case r == '\n' && keepNewlines, r == '\t' && keepTabs:
			b.WriteRune(r)
		case r == '\n' || r == '\t' || r == '\r':
			b.WriteByte(' ')
		case unicode.IsControl(r), isBidiControl(r):
			// dropped: C0, DEL, C1 (incl. a lone 0x9b CSI) and text-direction tricks
		default:
			b.WriteRune(r)
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
