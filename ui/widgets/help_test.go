package widgets

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Aliases that do not fit beside the description get a line of their own;
// nothing is cut and no line is wider than the terminal.
func TestCommandRowsNarrow(t *testing.T) {
	cs := []Command{{Name: "bin", Args: "[MATTER-UUID]", Desc: "the recycle bin", Aliases: []string{"recycle-bin", "rb"}},
		{Name: "quit", Desc: "quit", Aliases: []string{"q"}}}
	v := HelpView(testTheme(t), 40, []HelpGroup{{Title: "commands", Commands: cs}})
	if !strings.Contains(v, "also :recycle-bin :rb") || !strings.Contains(v, ":bin [MATTER-UUID]  the recycle bin") {
		t.Errorf("narrow command list:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("line of %d columns: %q", ansi.StringWidth(l), l)
		}
	}
	if v := HelpView(testTheme(t), 80, []HelpGroup{{Title: "commands", Commands: cs}}); !strings.Contains(v, "the recycle bin  :recycle-bin :rb") {
		t.Errorf("wide command list:\n%s", v)
	}
}
