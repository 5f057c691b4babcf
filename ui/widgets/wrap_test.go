package widgets

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// TestWrapKeepsIndentation: a line of indented JSON wrapped in a pane goes
// on under its own indentation (and a little further, to read as the same
// line), never at column 0, where it broke the JSON's shape; no line is
// wider than the pane and no character is lost.
func TestWrapKeepsIndentation(t *testing.T) {
	text := "data:\n  {\n    \"project\": {\n      \"name\": \"Bellhaven Shipping v. Tandem Freight — Refinancing of the northern fleet and its berths\"\n    }\n  }"
	s := NewScroll(testTheme(t), keys.New(false))
	s.SetSize(40, 30)
	s.SetContent(text)
	lines := strings.Split(ansi.Strip(s.View()), "\n")
	var got []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			got = append(got, l)
		}
	}
	start := -1
	for i, l := range got {
		if strings.Contains(l, `"name"`) {
			start = i
		}
	}
	if start < 0 || start+1 >= len(got) || !strings.HasPrefix(got[start], "      \"name\"") {
		t.Fatalf("the name line is not there:\n%s", strings.Join(got, "\n"))
	}
	for _, l := range got[start+1:] {
		if strings.TrimSpace(l) == "}" {
			break
		}
		if !strings.HasPrefix(l, "        ") {
			t.Fatalf("a wrapped line starts left of its indentation: %q\n%s", l, strings.Join(got, "\n"))
		}
	}
	for _, l := range got {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("a line of %d cells in 40: %q", ansi.StringWidth(l), l)
		}
	}
	joined := strings.Join(strings.Fields(strings.Join(got, " ")), " ")
	if !strings.Contains(joined, "Refinancing of the northern fleet and its berths") {
		t.Errorf("words lost in wrapping: %s", joined)
	}
}
