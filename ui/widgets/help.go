package widgets

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/themes"
)

// HelpGroup is a titled list of bindings, or of commands, for the help
// overlay.
type HelpGroup struct {
	Title    string
	Bindings []key.Binding
	Commands []Command
}

// Command is one row of help's command list: ":bin [MATTER-UUID]", what
// it shows, and its other names.
type Command struct {
	Name    string   // "bin"
	Args    string   // "[MATTER-UUID]"; "" when it takes none
	Desc    string   // "the recycle bin"
	Aliases []string // "recycle-bin", "rb"
}

// HelpView renders the help overlay from key bindings, so it can never
// drift from what the keys do. Disabled bindings (read-only) are left out.
func HelpView(th themes.Theme, width int, groups []HelpGroup) string {
	var cols []string
	for _, g := range groups {
		var b strings.Builder
		b.WriteString(th.Title.Render(g.Title))
		if len(g.Commands) > 0 {
			b.WriteString("\n" + commandRows(th, width, g.Commands))
		}
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
	text := strings.Join(rows, "\n\n") + "\n\n" + th.Muted.Render("press ? or esc to close help")
	// the gap after the last column is padding only: cut it, so no line is
	// wider than the terminal because of spaces
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// commandRows lays the commands out one per row in three aligned columns:
// the name with its arguments, the description, the aliases. When the
// aliases do not fit beside the description they go on a line of their
// own under it, never cut.
func commandRows(th themes.Theme, width int, cs []Command) string {
	usage := make([]string, len(cs))
	aliases := make([]string, len(cs))
	uw, dw := 0, 0
	for i, c := range cs {
		usage[i] = strings.TrimSpace(":" + c.Name + " " + c.Args)
		for _, a := range c.Aliases {
			aliases[i] += " :" + a
		}
		aliases[i] = strings.TrimSpace(aliases[i])
		uw = max(uw, lipgloss.Width(usage[i]))
		dw = max(dw, lipgloss.Width(c.Desc))
	}
	rows := make([]string, len(cs))
	for i, c := range cs {
		row := th.HelpKey.Render(padRight(usage[i], uw+1)) + " " + th.Help.Render(c.Desc)
		switch {
		case aliases[i] == "":
		case uw+2+dw+2+lipgloss.Width(aliases[i]) <= width:
			row = th.HelpKey.Render(padRight(usage[i], uw+1)) + " " + th.Help.Render(padRight(c.Desc, dw+1)) + " " + th.Muted.Render(aliases[i])
		default:
			also, indent := "also "+aliases[i], uw+2
			if indent+lipgloss.Width(also) > width {
				indent = 2
			}
			for _, l := range strings.Split(ansi.Wordwrap(also, max(width-indent, 10), ""), "\n") {
				row += "\n" + strings.Repeat(" ", indent) + th.Muted.Render(l)
			}
		}
		rows[i] = row
	}
	return strings.Join(rows, "\n")
}

func padRight(s string, w int) string {
	if n := lipgloss.Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s + " "
}
