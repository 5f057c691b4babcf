package widgets

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/vaultdeck/vaultdeck/themes"
)

// HelpGroup is a titled list of bindings for the help overlay.
type HelpGroup struct {
	Title    string
	Bindings []key.Binding
}

// HelpView renders the help overlay from key bindings, so it can never
// drift from what the keys do. Disabled bindings (read-only) are left out.
func HelpView(th themes.Theme, width int, groups []HelpGroup) string {
	var cols []string
	for _, g := range groups {
		var b strings.Builder
		b.WriteString(th.Title.Render(g.Title))
		seen := map[string]bool{}
		for _, kb := range g.Bindings {
			h := kb.Help()
			if !kb.Enabled() || h.Key == "" || seen[h.Key] {
				continue
			}
			seen[h.Key] = true
			b.WriteString("\n" + th.HelpKey.Render(padRight(h.Key, 10)) + th.Help.Render(h.Desc))
		}
		cols = append(cols, b.String())
	}
	// lay the groups out side by side while they fit, else stack them
	var rows []string
	var line []string
	used := 0
	for _, c := range cols {
		w := lipgloss.Width(c) + 4
		if used+w > width && len(line) > 0 {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, line...))
			line, used = nil, 0
		}
		line = append(line, th.Plain.PaddingRight(4).Render(c))
		used += w
	}
	if len(line) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, line...))
	}
	return strings.Join(rows, "\n\n") + "\n\n" + th.Muted.Render("press ? or esc to close help")
}

func padRight(s string, w int) string {
	if n := lipgloss.Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s + " "
}
