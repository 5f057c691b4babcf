package widgets

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// Items are whole or absent, "? help" always ends the line, and a disabled
// binding (read-only) is never offered.
func TestKeyLine(t *testing.T) {
	k := keys.New(true)
	bs := []key.Binding{keys.Hint(k.Enter, "open"), keys.Hint(k.Delete, "delete"), keys.Hint(k.Filter, "filter"), keys.Hint(k.Refresh, "refresh")}
	help := keys.Hint(k.Help, "help")
	if got := KeyLine(testTheme(t), 80, bs, help); got != "enter open · / filter · r refresh · ? help" {
		t.Errorf("wide: %q", got)
	}
	got := KeyLine(testTheme(t), 30, bs, help)
	if got != "enter open · / filter · ? help" || ansi.StringWidth(got) > 30 {
		t.Errorf("narrow: %q", got)
	}
	if got := KeyLine(testTheme(t), 8, bs, help); ansi.StringWidth(got) > 8 || strings.Contains(got, "enter") {
		t.Errorf("very narrow: %q", got)
	}
}
