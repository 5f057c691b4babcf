package widgets

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// keySep separates the items of a key line.
const keySep = " · "

// KeyLine is the footer's context line (as k9s and lazygit show one): the
// bindings as "key desc · key desc", in order, each whole or not at all.
// When they do not all fit, the later ones are left out and last (the way
// to the rest: "? help") still ends the line. Disabled bindings (read-only)
// never show: the line is made from the key map, so it cannot offer a key
// that does nothing.
func KeyLine(th themes.Theme, width int, bs []key.Binding, last key.Binding) string {
	item := func(b key.Binding) (string, int) {
		h := b.Help()
		plain := h.Key + " " + h.Desc
		return th.HelpKey.Render(h.Key) + " " + th.Help.Render(h.Desc), lipgloss.Width(plain)
	}
	var tail string
	tailW := 0
	if last.Enabled() && last.Help().Key != "" {
		tail, tailW = item(last)
	}
	sepW := lipgloss.Width(keySep)
	sep := th.Muted.Render(keySep)
	var parts []string
	used, seen := 0, map[string]bool{}
	for _, b := range bs {
		h := b.Help()
		if !b.Enabled() || h.Key == "" || seen[h.Key] || h.Key == last.Help().Key {
			continue
		}
		s, w := item(b)
		need := w
		if len(parts) > 0 {
			need += sepW
		}
		rest := 0
		if tailW > 0 {
			rest = sepW + tailW
		}
		if used+need+rest > width {
			break
		}
		seen[h.Key] = true
		parts = append(parts, s)
		used += need
	}
	if tailW > 0 {
		parts = append(parts, tail)
	}
	return ansi.Truncate(strings.Join(parts, sep), width, "…")
}

// TableHints are a table's own keys for the footer: while its filter is
// typed, enter and esc (nothing else acts); else esc while a filter is
// set, the filter and, with rows, sorting.
func TableHints(k keys.Map, t *Table) []key.Binding {
	if t.Filtering() {
		return []key.Binding{keys.Hint(k.Enter, "apply filter"), keys.Hint(k.Back, "cancel")}
	}
	var out []key.Binding
	if t.WantsEsc() {
		out = append(out, keys.Hint(k.Back, "clear filter"))
	}
	out = append(out, keys.Hint(k.Filter, "filter"))
	if t.Len() > 1 {
		out = append(out, keys.Hint(k.SortNext, "sort"))
	}
	return out
}
