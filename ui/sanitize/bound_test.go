package sanitize

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestRunsThatDrawNothingCollapseToAMarker: a cell keeps at most
// maxCellRunes code points, so what a frame writes is bounded by the
// screen's size; what people write (accents, Hangul, emoji sequences) is
// kept whole, and the widths the table measures stay those of the text.
func TestRunsThatDrawNothingCollapseToAMarker(t *testing.T) {
	zwj, acute := "\u200d", "\u0301"
	for _, c := range []struct{ name, in, want string }{
		{"e and a combining acute", "Re\u0301sume\u0301 v. Cafe\u0301", "Re\u0301sume\u0301 v. Cafe\u0301"},
		{"Vietnamese, two marks a letter", "Nguye\u0302\u0303n", "Nguye\u0302\u0303n"},
		{"Hangul jamo", "\u1112\u1161\u11ab\u1100\u1173\u11af", "\u1112\u1161\u11ab\u1100\u1173\u11af"},
		{"family emoji", "👨\u200d👩\u200d👧\u200d👦 Family trust", "👨\u200d👩\u200d👧\u200d👦 Family trust"},
		{"kiss with skin tones", "👩🏻\u200d❤\ufe0f\u200d💋\u200d👨🏼", "👩🏻\u200d❤\ufe0f\u200d💋\u200d👨🏼"},
		{"Scotland's tag flag", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"},
		{"a zero-width space between words", "alpha\u200bbeta", "alpha\u200bbeta"},
		{"the issue's name", "Zed " + strings.Repeat(zwj, 100_000) + strings.Repeat(acute, 100_000) + " matter", "Zed " + marker + " matter"},
		{"zalgo, 40 marks on a letter", "a" + strings.Repeat("\u0336", 40) + "b", "a" + marker + "b"},
		{"marks with no base", strings.Repeat(acute, 1000) + "x", marker + "x"},
		{"zero-width spaces", "a" + strings.Repeat("\u200b", 100_000) + "b", "a" + strings.Repeat("\u200b", maxCellRunes) + marker + "b"},
		{"leading jamo joined for ever", strings.Repeat("\u1100", 1000), "\u1100" + marker},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Line(c.in)
			if got != c.want {
				t.Errorf("Line = %q (%d bytes), want %q", trim(got), len(got), trim(c.want))
			}
			// Every cell of the result is small, whatever the input.
			for rest := got; rest != ""; {
				cl, _ := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
				if len(cl) > 4*maxCellRunes {
					t.Fatalf("a cell of %d bytes is left", len(cl))
				}
				rest = rest[len(cl):]
			}
		})
	}
	// Truncation measures the text kept: the name cut to 10 cells
	// is its letters, the marker and the ellipsis.
	if got := ansi.Truncate(Line("Zed "+strings.Repeat(zwj, 100_000)+strings.Repeat(acute, 100_000)+" matter"), 10, "…"); got != "Zed "+marker+" mat…" {
		t.Errorf("truncated to 10 cells: %q", got)
	}
	if w := ansi.StringWidth(Line("👨\u200d👩\u200d👧\u200d👦")); w != 2 {
		t.Errorf("the family emoji is %d cells, want 2", w)
	}
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
