package widgets

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestFitKeepsNumbersAndReasons(t *testing.T) {
	parts := []Part{Deco("File status"), Keep("12 files"), Keep("ready 3"), Keep("failed 1 (recoverable 1, unrecoverable 0)"),
		Keep("missing 0"), Deco("stuck: > 30m")}
	for _, w := range []int{200, 80, 40, 24, 10} {
		lines := Fit(w, parts...)
		all := strings.Join(lines, " ")
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Errorf("width %d: line %q is %d wide", w, l, ansi.StringWidth(l))
			}
			if strings.Contains(l, "…") {
				t.Errorf("width %d: cut %q", w, l)
			}
		}
		if w < 16 {
			continue // words wider than the terminal break; none is lost (checked at 24)
		}
		for _, want := range []string{"12 files", "ready 3", "missing 0", "recoverable 1,", "unrecoverable 0)"} {
			if !strings.Contains(all, want) {
				t.Errorf("width %d: %q lost: %q", w, want, lines)
			}
		}
	}
	if got := Fit(200, parts...); len(got) != 1 || !strings.HasPrefix(got[0], "File status · ") {
		t.Errorf("wide: %q", got)
	}
	// decoration goes before anything wraps
	got := Fit(80, parts...)
	if len(got) != 1 || strings.Contains(got[0], "File status") || strings.Contains(got[0], "stuck: >") {
		t.Errorf("80: %q", got)
	}
	if got := Fit(0, Keep("a"), Part{}, Deco("b")); len(got) != 1 || got[0] != "a · b" {
		t.Errorf("unbounded: %q", got)
	}
}
