package app

import (
	"cmp"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/clipboard"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// chrome is the lines the root keeps: header, breadcrumbs, status line
// (plus one line per running task, and a second status line when the
// status wraps).
const chrome = 3

// maxStatusLines is how many lines a status may take before it is cut
// (an error then keeps its short form and `!` shows it whole).
const maxStatusLines = 2

func (m *Model) bodySize() (int, int) {
	return m.width, max(m.height-chrome-(len(m.statusLines())-1)-len(m.tasks.running), 1)
}

// statusLines is the status laid out in the terminal's width: whole, on
// up to maxStatusLines lines, wrapped at spaces, rather than cut at the
// edge (a reason or a number cut in half is what a user needed). One
// line when there is no status.
func (m *Model) statusLines() []string {
	if m.cmdline != nil || m.status == "" || m.width <= 0 {
		return []string{""}
	}
	lines := widgets.WrapSpaces(m.status, m.width)
	if len(lines) <= maxStatusLines {
		return lines
	}
	if m.statusErr {
		return []string{m.shortError()}
	}
	lines = lines[:maxStatusLines]
	lines[maxStatusLines-1] = ansi.Truncate(lines[maxStatusLines-1], m.width-1, "") + "…"
	return lines
}

// View renders header, breadcrumbs, the top page (or help) and the status line.
func (m *Model) View() string {
	if m.width == 0 {
		return "" // no size yet: avoid a frame laid out for 0 columns
	}
	_, h := m.bodySize()
	var body string
	switch top := m.Top(); {
	case m.errPane != nil:
		body = m.errPane.View()
	case m.help:
		body = m.helpView()
	case top != nil:
		body = top.View()
	}
	footer := m.statusView()
	if len(m.tasks.running) > 0 {
		footer = m.taskView() + "\n" + footer
	}
	return m.headerView() + "\n" + m.breadcrumbView() + "\n" + widgets.FitHeight(body, h) + "\n" + footer
}

// headerPart is one item of the header; giveWay says which leave first
// when the line is too narrow (higher first; 0 never). short, when set, is
// what the part shows where its whole text does not fit.
type headerPart struct {
	text    string
	giveWay int
	short   string
	// least is the shorter form of a part that never gives way; its
	// whole text comes back, where it fits, in the turn of wholeAt among
	// the giveWay of the others.
	least   string
	wholeAt int
}

func (m *Model) headerView() string {
	th := m.env.Theme
	// What must stay is the product, READ-ONLY and the budget (the README
	// promises both); where the data lives comes next; the SSH key's comment
	// and fingerprint, the longest and least needed, leave first.
	parts := []headerPart{{text: th.Header.Render("vaultdeck")}}
	if m.conn().Profile != "" {
		parts = append(parts, headerPart{text: th.Badge.Render(sanitize.Line(m.conn().Profile)), giveWay: 3})
	}
	if where := m.where(); where != "" {
		parts = append(parts, headerPart{text: th.Muted.Render(where), giveWay: 2})
	}
	if m.conn().Session != "" {
		parts = append(parts, headerPart{text: th.Muted.Render(sanitize.Line(m.conn().Session)), giveWay: 6})
	}
	if m.workspace != "" {
		parts = append(parts, headerPart{text: th.Header.Render(sanitize.Line(m.workspace)), giveWay: 5})
	}
	if m.env.ReadOnly {
		parts = append(parts, headerPart{text: th.ReadOnlyBadge.Render("READ-ONLY")})
	}
	if m.conn().Warning != "" {
		w := sanitize.Line(m.conn().Warning)
		short, _, _ := strings.Cut(w, ":") // "Insecure storage: the token for …" reads "Insecure storage"
		parts = append(parts, headerPart{text: th.Warn.Render("⚠ " + w), giveWay: 4, short: th.Warn.Render("⚠ " + short)})
	}
	if m.env.Backend != nil {
		b := m.env.Backend.Budget(api.CategoryVault)
		if !b.Unlimited && b.Limit > 0 {
			// "left": the count is what remains, not what was spent (read
			// both ways), at every width: where the line is full the
			// limit gives way ("vault 9 left"), never the word.
			s, least := fmt.Sprintf("vault %d/%d left", b.Remaining, b.Limit), fmt.Sprintf("vault %d left", b.Remaining)
			style := th.Muted
			if b.Remaining <= 2 {
				style = th.Warn
			}
			if b.Remaining == 0 {
				next := fmt.Sprintf(" (next in %ds)", int(b.ResetIn.Seconds()+0.999))
				s, least = s+next, least+next
				style = th.Alarm
			}
			parts = append(parts, headerPart{text: style.Render(s), least: style.Render(least), wholeAt: 6}) // before the SSH key
		}
	}
	return fitHeader(parts, m.width)
}

// fitHeader joins the parts in their order, keeping those that never give
// way and then taking the others by importance (lowest giveWay first), each
// whole where it fits, else in its short form, else left out. A long part
// that cannot fit so takes nothing else with it (dropping by priority alone
// removed the workspace and the SSH key before a 130-column warning, and
// then had room for both). The line is cut only when the parts that never
// give way are too wide on their own.
func fitHeader(parts []headerPart, width int) string {
	shown := make([]string, len(parts))
	for i, p := range parts {
		if p.giveWay == 0 {
			shown[i] = cmp.Or(p.least, p.text)
		}
	}
	join := func() string {
		var texts []string
		for _, t := range shown {
			if t != "" {
				texts = append(texts, t)
			}
		}
		return strings.Join(texts, " ")
	}
	if line := join(); ansi.StringWidth(line) > width {
		return ansi.Truncate(line, width, "…")
	}
	// a step is a part to place (or, up, a part that never gives way to
	// widen from its least form back to its whole text), by importance
	type step struct {
		i, rank int
		up      bool
	}
	var order []step
	for i, p := range parts {
		switch {
		case p.giveWay > 0:
			order = append(order, step{i: i, rank: p.giveWay})
		case p.least != "":
			order = append(order, step{i: i, rank: p.wholeAt, up: true})
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		return order[a].rank < order[b].rank || (order[a].rank == order[b].rank && order[a].up && !order[b].up)
	})
	for _, s := range order {
		if s.up {
			shown[s.i] = parts[s.i].text
			if ansi.StringWidth(join()) > width {
				shown[s.i] = parts[s.i].least
			}
			continue
		}
		for _, t := range []string{parts[s.i].text, parts[s.i].short} {
			if t == "" {
				continue
			}
			shown[s.i] = t
			if ansi.StringWidth(join()) <= width {
				break
			}
			shown[s.i] = ""
		}
	}
	return join()
}

// where is the region, or the host of a custom base URL.
func (m *Model) where() string {
	if m.conn().Where != "" {
		return sanitize.Line(m.conn().Where)
	}
	if m.env.Backend == nil {
		return ""
	}
	if u, err := url.Parse(m.env.Backend.Base()); err == nil && u.Host != "" {
		return sanitize.Line(u.Host)
	}
	return ""
}

func (m *Model) breadcrumbView() string {
	titles := make([]string, len(m.stack))
	for i, p := range m.stack {
		titles[i] = sanitize.Line(p.Title())
	}
	s := strings.Join(titles, " › ")
	return m.env.Theme.Breadcrumb.Render(ansi.Truncate(s, m.width, "…"))
}

func (m *Model) statusView() string {
	th := m.env.Theme
	switch {
	case m.cmdline != nil:
		return m.cmdline.View()
	case m.status != "":
		style := th.StatusLine
		if m.statusErr {
			style = th.Error
		}
		lines := m.statusLines()
		for i, l := range lines {
			lines[i] = style.Render(ansi.Truncate(l, m.width, "…"))
		}
		lines[len(lines)-1] = m.withKeys(lines[len(lines)-1])
		return strings.Join(lines, "\n")
	}
	return m.keyLine(m.width)
}

func (m *Model) helpView() string {
	k := m.env.Keys
	top := m.Top()
	seen := map[string]bool{}
	groups := []widgets.HelpGroup{}
	if top != nil {
		groups = append(groups, widgets.HelpGroup{Title: sanitize.Line(top.Title()), Bindings: unseen(seen, top.Help())})
	}
	global := k.Global()
	if _, ok := top.(page.Selector); !ok {
		global = without(without(global, k.Copy), k.Show) // y and Y only where something can be selected
	}
	if _, ok := exporter(top); !ok {
		global = without(global, k.Export) // e only where there is a table
	}
	groups = append(groups,
		widgets.HelpGroup{Title: "navigation", Bindings: unseen(seen, k.Navigation())},
		widgets.HelpGroup{Title: "global", Bindings: unseen(seen, global)},
		widgets.HelpGroup{Title: "commands (: then a name or an alias; it replaces the views above the first)", Commands: m.commandHelp()})
	text := widgets.HelpView(m.env.Theme, m.width, groups)
	if m.helpScroll == nil {
		return text
	}
	_, h := m.bodySize()
	m.helpScroll.SetSize(m.width, h)
	m.helpScroll.SetContent(text)
	if m.helpScroll.Fits() {
		return text
	}
	m.helpScroll.SetSize(m.width, max(h-1, 1)) // a line for the position
	return m.helpScroll.View() + "\n" + m.helpScroll.Position()
}

// commandHelp lists every route once, with its arguments and aliases, so
// none is a secret.
func (m *Model) commandHelp() []widgets.Command {
	out := make([]widgets.Command, 0, len(m.cfg.Routes)+1)
	for _, r := range m.cfg.Routes {
		desc := r.Help
		if desc == "" {
			desc = r.Name
		}
		out = append(out, widgets.Command{Name: r.Name, Args: r.Args, Desc: desc, Aliases: r.Aliases})
	}
	out = append(out, widgets.Command{Name: "quit", Desc: "quit", Aliases: []string{"q"}})
	return append(out, m.savedHelp()...)
}

// unseen keeps the enabled bindings whose keys no earlier group listed: a
// view listing r with its own description ("poll now") wins over the
// global "refresh", and a disabled key (D when read-only) never shows.
func unseen(seen map[string]bool, bs []key.Binding) []key.Binding {
	out := []key.Binding{}
	for _, b := range keys.Enabled(bs...) {
		k := strings.Join(b.Keys(), " ")
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, b)
	}
	return out
}

func without(bs []key.Binding, drop key.Binding) []key.Binding {
	out := []key.Binding{}
	for _, b := range bs {
		if strings.Join(b.Keys(), " ") != strings.Join(drop.Keys(), " ") {
			out = append(out, b)
		}
	}
	return out
}

// copySelected sends the marked IDs, or the selected one, to the
// terminal's clipboard (ui/clipboard decides how, inside tmux too).
func (m *Model) copySelected() tea.Cmd {
	if d, ok := m.Top().(page.Documenter); ok {
		if doc, ok := d.Document(); ok {
			return clipboard.CopyDocument(m.env.Context(), m.env.Output, m.cfg.Getenv, doc.What, string(doc.Body), m.env.Keys.Export.Enabled())
		}
	}
	return clipboard.Copy(m.env.Context(), m.env.Output, m.cfg.Getenv, clipboard.Values(m.Top()))
}

// showSelected opens a pane with the marked or selected IDs whole, to be
// selected with the mouse.
func (m *Model) showSelected() tea.Cmd {
	ids := clipboard.Values(m.Top())
	if ids == nil {
		return page.Status(clipboard.NothingSelected)
	}
	return m.push(clipboard.NewPane(m.env, ids))
}

// conn is the connection the header describes (none: an empty one).
func (m *Model) conn() *account.Conn {
	if m.env.Conn == nil {
		return &account.Conn{}
	}
	return m.env.Conn
}
