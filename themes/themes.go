// Package themes turns a palette into the lipgloss styles every view uses.
// Styles are built from a *lipgloss.Renderer handed in by the caller, never
// from a package-level renderer: an SSH session (wish) has its own terminal
// and colour profile, and must get its own Theme.
package themes

import (
	"fmt"
	"os"
	"sort"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Theme is the full set of styles of the console. It is a handle to Styles,
// built once by New and never changed after: copy it freely (every view,
// table and dialog holds one), the copies share the styles. A handle rather
// than the 14 KB of styles themselves, because every view and widget keeps
// a Theme and page.Env carries one: by value, each construction copied the
// whole set, and the console's first frame paid for it in heap and stack
// growth (issue 32).
type Theme struct{ *Styles }

// Styles are a theme's styles; reach them through a Theme.
type Styles struct {
	Name string
	// Renderer is the program's (or SSH session's) own renderer, for layout
	// helpers such as Place that need one; styles below are all built on it.
	Renderer *lipgloss.Renderer

	Plain      lipgloss.Style // no attributes: width and padding only
	TextCursor lipgloss.Style // the cursor cell of a text input

	Header        lipgloss.Style // top bar
	Badge         lipgloss.Style // profile / region chips in the header
	ReadOnlyBadge lipgloss.Style // "READ-ONLY" chip
	Title         lipgloss.Style // view titles, dialog titles
	Breadcrumb    lipgloss.Style // "projects › Acme › files"
	TableHeader   lipgloss.Style
	Row           lipgloss.Style
	SelectedRow   lipgloss.Style // the cursor row
	MarkedRow     lipgloss.Style // rows picked with space
	Changed       lipgloss.Style // rows that changed since the last refresh
	Muted         lipgloss.Style
	Warn          lipgloss.Style // amber: purge within 7 days, budget low
	Alarm         lipgloss.Style // red: purge within 24 hours, stuck files
	OK            lipgloss.Style
	Error         lipgloss.Style
	StatusLine    lipgloss.Style
	Help          lipgloss.Style // help text (key descriptions)
	HelpKey       lipgloss.Style // the key part of a help entry
	Dialog        lipgloss.Style // bordered box of dialogs and overlays
	Border        lipgloss.Style // plain bordered panes (detail pane)
	Input         lipgloss.Style // prompt of filter and command inputs
	ActiveTab     lipgloss.Style
	Tab           lipgloss.Style
	Spinner       lipgloss.Style
}

// palette is the handful of colours a theme is made of.
type palette struct {
	fg, muted, accent, accentFg, selBg, selFg, warn, alarm, ok, border lipgloss.TerminalColor
}

var palettes = map[string]palette{
	"dark": {
		fg: lipgloss.Color("252"), muted: lipgloss.Color("245"), accent: lipgloss.Color("63"),
		// selFg is the 16-colour white ("97", not "38;5;231"): the selected row is
		// redrawn on every cursor move, 6 bytes less each time over SSH.
		accentFg: lipgloss.Color("231"), selBg: lipgloss.Color("238"), selFg: lipgloss.Color("15"),
		warn: lipgloss.Color("214"), alarm: lipgloss.Color("203"), ok: lipgloss.Color("78"), border: lipgloss.Color("240"),
	},
	"light": {
		fg: lipgloss.Color("235"), muted: lipgloss.Color("243"), accent: lipgloss.Color("25"),
		accentFg: lipgloss.Color("231"), selBg: lipgloss.Color("153"), selFg: lipgloss.Color("0"), // "30", as dark's
		warn: lipgloss.Color("130"), alarm: lipgloss.Color("160"), ok: lipgloss.Color("28"), border: lipgloss.Color("248"),
	},
	"high-contrast": {
		fg: lipgloss.Color("15"), muted: lipgloss.Color("7"), accent: lipgloss.Color("11"),
		accentFg: lipgloss.Color("0"), selBg: lipgloss.Color("15"), selFg: lipgloss.Color("0"),
		warn: lipgloss.Color("11"), alarm: lipgloss.Color("9"), ok: lipgloss.Color("10"), border: lipgloss.Color("15"),
	},
}

// Names lists the accepted theme names, for flags and completion.
func Names() []string {
	names := []string{"auto", "mono"}
	for n := range palettes {
		names = append(names, n)
	}
	sort.Strings(names[2:])
	return names
}

// NoColorFromEnv reports whether the environment asks for no colour: NO_COLOR
// set and non-empty (https://no-color.org), or CLICOLOR=0 unless
// CLICOLOR_FORCE overrides it (the same rule termenv applies). getenv is
// injected for tests; nil means os.Getenv.
func NoColorFromEnv(getenv func(string) string) bool {
	if getenv == nil {
		getenv = os.Getenv
	}
	if getenv("NO_COLOR") != "" {
		return true
	}
	force := getenv("CLICOLOR_FORCE")
	return getenv("CLICOLOR") == "0" && (force == "" || force == "0")
}

// AsksTerminal reports whether New(r, name, noColor) asks the terminal for
// its background colour (lipgloss's HasDarkBackground: an OSC 11 query and
// its answer, kept by r): the auto theme in colour does.
func AsksTerminal(name string, noColor bool) bool {
	return !noColor && (name == "" || name == "auto")
}

// Check says why New would refuse name ("" is auto).
func Check(name string) error {
	if name == "" || name == "auto" || name == "mono" {
		return nil
	}
	if _, ok := palettes[name]; !ok {
		return fmt.Errorf("there is no theme %q; choose one of %v", name, Names())
	}
	return nil
}

// New builds the named theme on r. "auto" picks dark or light from the
// terminal's background; noColor (--no-color or NO_COLOR) forces "mono",
// which uses attributes (bold, reverse, underline) but no colour at all.
func New(r *lipgloss.Renderer, name string, noColor bool) (Theme, error) {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	if name == "" {
		name = "auto"
	}
	if noColor {
		name = "mono"
		keepAttributes(r)
	}
	switch name {
	case "mono":
		return mono(r), nil
	case "auto":
		if r.HasDarkBackground() {
			name = "dark"
		} else {
			name = "light"
		}
	}
	if err := Check(name); err != nil {
		return Theme{}, err
	}
	return colored(r, name, palettes[name]), nil
}

// keepAttributes undoes what NO_COLOR does to a renderer on a terminal:
// termenv answers NO_COLOR (and CLICOLOR=0) with the Ascii profile, which
// drops bold, underline and reverse video along with colour, so the cursor
// row and urgent countdowns would vanish. NO_COLOR asks for no colour, not
// no attributes: on a terminal the plain ANSI profile keeps them, and the
// mono theme never asks for a colour. Output that is not a terminal keeps
// Ascii.
func keepAttributes(r *lipgloss.Renderer) {
	if r.ColorProfile() == termenv.Ascii && r.Output().ColorProfile() != termenv.Ascii {
		r.SetColorProfile(termenv.ANSI)
	}
}

func colored(r *lipgloss.Renderer, name string, p palette) Theme {
	s := r.NewStyle
	return Theme{&Styles{
		Name:          name,
		Renderer:      r,
		Plain:         s(),
		TextCursor:    s().Reverse(true),
		Header:        s().Foreground(p.fg).Bold(true),
		Badge:         s().Foreground(p.accentFg).Background(p.accent).Padding(0, 1),
		ReadOnlyBadge: s().Foreground(p.accentFg).Background(p.warn).Bold(true).Padding(0, 1),
		Title:         s().Foreground(p.accent).Bold(true),
		Breadcrumb:    s().Foreground(p.muted),
		TableHeader:   s().Foreground(p.accent).Bold(true),
		Row:           s().Foreground(p.fg),
		SelectedRow:   s().Foreground(p.selFg).Background(p.selBg).Bold(true),
		MarkedRow:     s().Foreground(p.accent).Bold(true),
		Changed:       s().Foreground(p.ok),
		Muted:         s().Foreground(p.muted),
		Warn:          s().Foreground(p.warn),
		Alarm:         s().Foreground(p.alarm).Bold(true),
		OK:            s().Foreground(p.ok),
		Error:         s().Foreground(p.alarm).Bold(true),
		StatusLine:    s().Foreground(p.muted),
		Help:          s().Foreground(p.muted),
		HelpKey:       s().Foreground(p.accent).Bold(true),
		Dialog:        s().Border(lipgloss.RoundedBorder()).BorderForeground(p.accent).Padding(0, 1),
		Border:        s().Border(lipgloss.NormalBorder()).BorderForeground(p.border).Padding(0, 1),
		Input:         s().Foreground(p.accent),
		ActiveTab:     s().Foreground(p.accentFg).Background(p.accent).Bold(true).Padding(0, 1),
		Tab:           s().Foreground(p.muted).Padding(0, 1),
		Spinner:       s().Foreground(p.accent),
	}}
}

// mono carries meaning with attributes only, so that NO_COLOR users still
// see the cursor row, warnings and alarms.
func mono(r *lipgloss.Renderer) Theme {
	s := r.NewStyle
	return Theme{&Styles{
		Name:          "mono",
		Renderer:      r,
		Plain:         s(),
		TextCursor:    s().Reverse(true),
		Header:        s().Bold(true),
		Badge:         s().Reverse(true).Padding(0, 1),
		ReadOnlyBadge: s().Reverse(true).Bold(true).Padding(0, 1),
		Title:         s().Bold(true),
		Breadcrumb:    s(),
		TableHeader:   s().Bold(true).Underline(true),
		Row:           s(),
		SelectedRow:   s().Reverse(true),
		MarkedRow:     s().Bold(true),
		Changed:       s().Bold(true),
		Muted:         s().Faint(true),
		Warn:          s().Underline(true),
		Alarm:         s().Bold(true).Underline(true),
		OK:            s(),
		Error:         s().Bold(true),
		StatusLine:    s(),
		Help:          s(),
		HelpKey:       s().Bold(true),
		Dialog:        s().Border(lipgloss.RoundedBorder()).Padding(0, 1),
		Border:        s().Border(lipgloss.NormalBorder()).Padding(0, 1),
		Input:         s().Bold(true),
		ActiveTab:     s().Reverse(true).Padding(0, 1),
		Tab:           s().Padding(0, 1),
		Spinner:       s(),
	}}
}
