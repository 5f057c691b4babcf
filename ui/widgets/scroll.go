package widgets

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// Scroll is a pane of text that scrolls with the console's own navigation
// keys (j/k, pgup/pgdn, g/G), so that help, details and dialogs are never
// cut off on a small terminal. Lines are wrapped to the width, not cut, each under its own indentation.
type Scroll struct {
	theme themes.Theme
	keys  keys.Map
	vp    viewport.Model
	text  string
	width int
}

// NewScroll returns an empty pane; SetSize gives it room.
func NewScroll(th themes.Theme, km keys.Map) *Scroll {
	vp := viewport.New(1, 1)
	vp.KeyMap = viewport.KeyMap{} // keys come from the console's map, in Update
	vp.MouseWheelEnabled = false
	return &Scroll{theme: th, keys: km, vp: vp}
}

// SetSize sets the pane's area; the text is rewrapped to the width.
func (s *Scroll) SetSize(w, h int) {
	s.width = max(w, 1)
	s.vp.Width, s.vp.Height = s.width, max(h, 1)
	s.vp.SetContent(wrapIndented(s.text, s.width))
}

// SetContent replaces the text, keeping the scroll position where it can.
func (s *Scroll) SetContent(text string) {
	s.text = text
	s.vp.SetContent(wrapIndented(text, s.width))
}

// Update scrolls on a navigation key and reports whether it used the key.
func (s *Scroll) Update(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return false
	}
	km := s.keys
	switch {
	case key.Matches(k, km.Down):
		s.vp.ScrollDown(1)
	case key.Matches(k, km.Up):
		s.vp.ScrollUp(1)
	case key.Matches(k, km.PageDown):
		s.vp.PageDown()
	case key.Matches(k, km.PageUp):
		s.vp.PageUp()
	case key.Matches(k, km.Top):
		s.vp.GotoTop()
	case key.Matches(k, km.Bottom):
		s.vp.GotoBottom()
	default:
		return false
	}
	return true
}

// Lines is the number of wrapped lines of the whole text.
func (s *Scroll) Lines() int { return s.vp.TotalLineCount() }

// Fits reports whether the whole text is visible.
func (s *Scroll) Fits() bool { return s.vp.TotalLineCount() <= s.vp.Height }

// View renders the visible lines.
func (s *Scroll) View() string { return s.vp.View() }

// Position is a short "lines 3-10 of 40 (j/k)" hint, empty when the
// whole text fits.
func (s *Scroll) Position() string {
	if s.Fits() {
		return ""
	}
	first := s.vp.YOffset + 1
	last := min(s.vp.YOffset+s.vp.Height, s.vp.TotalLineCount())
	return s.theme.Muted.Render(fmt.Sprintf("lines %d-%d of %d (j/k)", first, last, s.vp.TotalLineCount()))
}

// Pane is a bordered Scroll with its position under it: the detail panes
// (recycle bin, audit) show every value whole, wrapped, and scroll.
type Pane struct {
	theme  themes.Theme
	scroll *Scroll
	w      int
	note   string // before "esc closes": what else the pane offers
}

// NewPane returns an empty pane.
func NewPane(th themes.Theme, km keys.Map) *Pane {
	return &Pane{theme: th, scroll: NewScroll(th, km)}
}

// SetSize gives the pane its outer size: border, text and a position line.
func (p *Pane) SetSize(w, h int) {
	p.w = w
	fw, fh := p.theme.Border.GetHorizontalFrameSize(), p.theme.Border.GetVerticalFrameSize()
	p.scroll.SetSize(max(w-fw, 1), max(h-fh-1, 1))
}

// SetContent replaces the text.
func (p *Pane) SetContent(s string) { p.scroll.SetContent(s) }

// SetNote sets a short line part shown before "esc closes" (the audit
// detail: "drawn in part · y copies the whole entry").
func (p *Pane) SetNote(s string) { p.note = s }

// Update scrolls on a navigation key and reports whether it used the key.
func (p *Pane) Update(msg tea.Msg) bool { return p.scroll.Update(msg) }

// View renders the border, the visible text and the position line.
func (p *Pane) View() string {
	box := p.theme.Border
	if p.w > 0 {
		box = box.Width(max(p.w-p.theme.Border.GetHorizontalBorderSize(), 1))
	}
	hint := p.scroll.Position()
	closes := "esc closes"
	if p.note != "" {
		closes = p.note + " · " + closes
	}
	if hint == "" {
		hint = p.theme.Muted.Render(closes)
	} else {
		hint += p.theme.Muted.Render(" · " + closes)
	}
	return box.Render(p.scroll.View()) + "\n" + ansi.Truncate(hint, max(p.w, 1), "…")
}
