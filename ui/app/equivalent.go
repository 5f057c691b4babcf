// The bridge from the console to a script and back (issue 31): C shows the
// headless command that lists what the view shows (y copies it), V saves
// the view's query under a name, and :NAME opens a saved one. The pages
// say their query (page.Querier); the root does the rest, once for all.
package app

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// SavedViews are the saved views of the session: Saved lists them as they
// were when the console started (read before the first frame: Update does
// no IO), and Save writes one (called from a command, never from Update).
type SavedViews struct {
	Saved map[string]page.Query
	// Save keeps q under name in the views file; nil: saving is not
	// available (no local files, as over SSH).
	Save func(name string, q page.Query) error
	// Where names the file, for messages.
	Where string
}

// equivalentFormat is the output format the shown command ends with: the
// rows as a table would be shown anyway, and CSV is what a script reads.
const equivalentFormat = "--csv"

// showEquivalent opens the pane with the top page's command.
func (m *Model) showEquivalent() tea.Cmd {
	q, ok := m.query()
	if !ok {
		return page.Status("this view lists nothing that a headless command lists")
	}
	return m.push(&equivalentPane{env: m.env, query: q, pane: widgets.NewPane(m.env.Theme, m.env.Keys)})
}

// query is the top page's query, if it lists something now: a view with
// modes (matters: a file being previewed) says an empty one when the mode
// shown is no listing.
func (m *Model) query() (page.Query, bool) {
	q, ok := m.Top().(page.Querier)
	if !ok {
		return page.Query{}, false
	}
	query := q.Query()
	query.Globals = m.globals()
	return query, len(query.Command) > 0
}

// globals are the flags that send a headless command where this session's
// rows come from (issue 42): the stored profile, and the endpoint when it
// is not the default one (a region other than us, or a base URL: the
// demo's simulator on loopback, a staging service). Without them a pasted
// line asked another service, or the default profile's workspace.
func (m *Model) globals() []page.Flag {
	var out []page.Flag
	c := m.conn()
	if c.Profile != "" && c.Where != account.SimulatorWhere {
		out = append(out, page.Flag{Name: "profile", Value: c.Profile})
	}
	switch region, ok := strings.CutPrefix(c.Where, "region "); {
	case ok && region != "us":
		out = append(out, page.Flag{Name: "region", Value: region})
	case !ok && m.env.Backend != nil && m.env.Backend.Base() != "":
		out = append(out, page.Flag{Name: "base-url", Value: m.env.Backend.Base()})
	}
	return out
}

// equivalentPane shows one query's command line whole (wrapped, never
// cut), what it does not say, and the keys. It is a Documenter, so `y`
// copies the line as `y` copies any record (OSC 52, inside tmux too), and
// a Querier, so V saves the view it shows.
type equivalentPane struct {
	env   page.Env
	query page.Query
	pane  *widgets.Pane
	w     int
}

func (p *equivalentPane) line() string {
	if p.query.Format != nil {
		return p.query.Line(p.query.Format...)
	}
	return p.query.Line(equivalentFormat)
}

func (p *equivalentPane) Init() tea.Cmd { return nil }

func (p *equivalentPane) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	p.pane.Update(msg)
	return p, nil
}

func (p *equivalentPane) SetSize(w, h int) {
	p.w = w
	p.pane.SetSize(w, h)
	p.pane.SetContent(p.text(max(w-4, 20)))
}

// text is the line, wrapped where it must be, then the notes. The line is
// sanitized for the screen only: what y copies is the line itself.
func (p *equivalentPane) text(width int) string {
	var b strings.Builder
	// at spaces only: ansi.Wrap breaks at hyphens too, and a flag cut
	// after its "--" reads as two words when selected with the mouse
	b.WriteString(strings.Join(widgets.WrapSpaces(sanitize.Line(p.line()), width), "\n"))
	for _, u := range slices.Concat(p.query.Unsaid, p.query.Order) {
		b.WriteString("\n\n" + ansi.Wrap(sanitize.Line("not in this command: "+u), width, " "))
	}
	if len(p.query.Unsaid) > 0 {
		b.WriteString("\n\n" + ansi.Wrap("V cannot save this view: what the command leaves out would be lost", width, " "))
	}
	return b.String()
}

func (p *equivalentPane) View() string {
	note := "y copies it"
	if p.env.Keys.SaveView.Enabled() {
		note += " · V saves it as a view"
	}
	p.pane.SetNote(note)
	return p.pane.View()
}

func (p *equivalentPane) Title() string { return "command" }

func (p *equivalentPane) Help() []key.Binding {
	k := p.env.Keys
	return []key.Binding{k.Copy, k.SaveView, k.Up, k.Down, k.Back}
}

// ContextKeys implements page.KeyHinter: the footer says what y and V
// do here (the command, not an ID).
func (p *equivalentPane) ContextKeys() []key.Binding {
	k := p.env.Keys
	return keys.Enabled(keys.Hint(k.Copy, "copy the command"), keys.Hint(k.SaveView, "save as a view"), k.Back)
}

// SelectedID implements page.Selector: Y shows the line whole, to be
// selected with the mouse where OSC 52 does not reach the clipboard.
func (p *equivalentPane) SelectedID() string { return p.line() }

// Query implements page.Querier: V on the pane saves the view it shows.
func (p *equivalentPane) Query() page.Query { return p.query }

// Document implements page.Documenter: y copies the command line.
func (p *equivalentPane) Document() (page.Document, bool) {
	return page.Document{What: "the command", Stem: "command", Ext: "sh", Body: []byte(p.line())}, true
}

// askViewName opens the name prompt for the top page's query.
func (m *Model) askViewName() tea.Cmd {
	query, ok := m.query()
	if !ok {
		return page.Status("this view lists nothing that a saved view could keep")
	}
	if m.cfg.Views.Save == nil {
		return page.Status("saving views is not available in this session")
	}
	if len(query.Unsaid) > 0 {
		// a saved view that quietly lists other rows is worse than none
		return page.Status("this view cannot be saved as shown: no flag of " + strings.Join(query.Command, " ") + " says " + strings.Join(query.Unsaid, "; ") + " (clear it, then V)")
	}
	m.saving = &query
	m.cmdline = widgets.NewPrompt(m.env.Theme, "save view as: ", m.savedNames())
	return nil
}

// viewSaved is the outcome of saving a view, for the root.
type viewSaved struct {
	name  string
	query page.Query
	err   error
}

// saveView writes the view in a command: the file system is IO.
func (m *Model) saveView(name string, q page.Query) tea.Cmd {
	if err := account.CheckViewName(name); err != nil {
		m.setStatus(page.StatusMsg{Err: err})
		m.statusOwner = m.Top()
		return nil
	}
	if m.route(name) != nil || name == "quit" || name == "q" {
		m.setStatus(page.StatusMsg{Err: fmt.Errorf("%q is already a command of the console; choose another name for the view", name)})
		m.statusOwner = m.Top()
		return nil
	}
	save := m.cfg.Views.Save
	return func() tea.Msg { return viewSaved{name: name, query: q, err: save(name, q)} }
}

func (m *Model) viewSaved(s viewSaved) {
	if s.err != nil {
		m.setStatus(page.StatusMsg{Err: fmt.Errorf("the view %q was not saved: %w", s.name, s.err)})
		return
	}
	if m.cfg.Views.Saved == nil {
		m.cfg.Views.Saved = map[string]page.Query{}
	}
	m.cfg.Views.Saved[s.name] = s.query
	where := ""
	if m.cfg.Views.Where != "" {
		where = " in " + m.cfg.Views.Where
	}
	m.setStatus(page.StatusMsg{Text: fmt.Sprintf("saved the view %q%s; :%s opens it, vaultdeck view %s runs it", s.name, where, s.name, s.name)})
}

func (m *Model) savedNames() []string {
	out := make([]string, 0, len(m.cfg.Views.Saved))
	for n := range m.cfg.Views.Saved {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// openSaved opens a saved view: the route whose command it names builds
// the page from the query. Like :view, it replaces the stack above the
// root.
func (m *Model) openSaved(name string) (tea.Cmd, bool) {
	q, ok := m.cfg.Views.Saved[name]
	if !ok {
		return nil, false
	}
	if err := m.sameConnection(q); err != nil {
		m.setStatus(page.StatusMsg{Err: fmt.Errorf("the view %q %w", name, err)})
		m.statusOwner = m.Top()
		return nil, true
	}
	r := m.routeOf(q)
	if r == nil {
		m.setStatus(page.StatusMsg{Err: fmt.Errorf("the view %q lists %q, which the console does not show", name, strings.Join(q.Command, " "))})
		m.statusOwner = m.Top()
		return nil, true
	}
	p, err := r.FromQuery(m.env, q)
	if err != nil {
		m.setStatus(page.StatusMsg{Err: fmt.Errorf("the view %q cannot be opened: %w", name, err)})
		m.statusOwner = m.Top()
		return nil, true
	}
	for len(m.stack) > 1 {
		m.drop()
	}
	m.remember(p, ":"+name, "")
	return m.push(p), true
}

// sameConnection refuses a saved view of another profile or endpoint than
// this session's: its rows are another workspace's.
func (m *Model) sameConnection(q page.Query) error {
	mine := m.globals()
	for _, g := range q.Globals {
		i := slices.IndexFunc(mine, func(f page.Flag) bool { return f.Name == g.Name })
		if i < 0 || mine[i].Value != g.Value {
			here := "this session has none"
			if i >= 0 {
				here = "this session's is " + mine[i].Value
			}
			return fmt.Errorf("lists --%s %s (%s): run it with vaultdeck view, or open a console there", g.Name, g.Value, here)
		}
	}
	return nil
}

// routeOf is the route that shows q's command.
func (m *Model) routeOf(q page.Query) *Route {
	for i, r := range m.cfg.Routes {
		if r.FromQuery == nil {
			continue
		}
		for _, c := range r.Commands {
			if len(q.Command) >= len(c) && slices.Equal(q.Command[:len(c)], c) {
				return &m.cfg.Routes[i]
			}
		}
	}
	return nil
}

// savedHelp lists the saved views among the commands, each with what it
// runs, so a view saved months ago is not a secret either.
func (m *Model) savedHelp() []widgets.Command {
	var out []widgets.Command
	for _, n := range m.savedNames() {
		q := m.cfg.Views.Saved[n]
		out = append(out, widgets.Command{Name: n, Desc: "saved view: " + sanitize.Line(strings.Join(q.Args(), " "))})
	}
	return out
}
