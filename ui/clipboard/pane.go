package clipboard

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Pane shows IDs whole, one per line, with nothing else on their lines, so
// they can be selected with the terminal's own mouse selection (the console
// leaves the mouse to the terminal) when OSC 52 cannot reach the clipboard.
// Long values wrap instead of being cut; the pane scrolls.
type Pane struct {
	env    page.Env
	ids    []string
	scroll *widgets.Scroll
}

// NewPane builds the pane for ids (already sanitized).
func NewPane(env page.Env, ids []string) *Pane {
	p := &Pane{env: env, ids: ids, scroll: widgets.NewScroll(env.Theme, env.Keys)}
	p.scroll.SetContent(strings.Join(ids, "\n"))
	return p
}

// Init implements page.Page.
func (p *Pane) Init() tea.Cmd { return nil }

// Update scrolls.
func (p *Pane) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	p.scroll.Update(msg)
	return p, nil
}

// SetSize keeps one line for the hint.
func (p *Pane) SetSize(w, h int) { p.scroll.SetSize(w, max(h-2, 1)) }

// View renders the values and a hint under them.
func (p *Pane) View() string {
	hint := "select with the mouse (shift+drag where the terminal needs it) · esc closes"
	if pos := p.scroll.Position(); pos != "" {
		hint = pos + " · " + hint
	}
	return p.scroll.View() + "\n\n" + p.env.Theme.Muted.Render(hint)
}

// Title implements page.Page.
func (p *Pane) Title() string {
	if len(p.ids) == 1 {
		return "id"
	}
	return "ids"
}

// Help implements page.Page.
func (p *Pane) Help() []key.Binding {
	k := p.env.Keys
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Back}
}

// ContextKeys implements page.KeyHinter: only scrolling and esc act here,
// so the root answers a table's keys (/, o, x) and r with why not.
func (p *Pane) ContextKeys() []key.Binding { return p.Help() }
