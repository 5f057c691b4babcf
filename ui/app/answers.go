package app

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Every key acts or says in one line why not (issue 29.3): a key this
// session turned off, enter where the page names no use for it, the
// chore key where no hint asks for one.

// here is what the page on top offers, for keys.Map.Answer: the root's
// keys and the navigation (help lists both on every page), the page's
// help and context keys; what acts now is its context
// keys, when it names them.
func (m *Model) here(top page.Page) keys.Here {
	h := keys.Here{Offers: append(m.env.Keys.Global(), m.env.Keys.Navigation()...)} // as help lists them
	if top == nil {
		return h
	}
	h.Route, _, _ = strings.Cut(m.opened[top], " ")
	h.Offers = append(h.Offers, top.Help()...)
	if kh, ok := top.(page.KeyHinter); ok {
		h.Acts, h.Hinted = kh.ContextKeys(), true
		h.Offers = append(h.Offers, h.Acts...)
		// x marks the selected row of any table shown (its / is offered),
		// which footers leave out for room
		if s, ok := top.(page.Selector); ok && s.SelectedID() != "" && slices.ContainsFunc(keys.Enabled(h.Acts...), func(b key.Binding) bool { return slices.Equal(b.Keys(), m.env.Keys.Filter.Keys()) }) {
			h.Acts = append(h.Acts, m.env.Keys.Mark)
		}
	}
	return h
}

// overlayKey answers a key pressed over the help or the last errors (which
// take the keyboard to scroll) that neither scrolls nor closes them; the
// line an earlier key left goes with the next.
func (m *Model) overlayKey(msg tea.KeyMsg, what string) {
	if m.overlayLine && m.status != "" {
		m.status = ""
	}
	m.overlayLine = false
	if line := m.env.Keys.Over(msg.String(), what); line != "" {
		m.setStatus(page.StatusMsg{Text: line})
		m.overlayLine = true
	}
}

// flash shows a one-line notice owned by the page on top, which its next
// key takes away (updateTop).
func (m *Model) flash(text string) {
	m.setStatus(page.StatusMsg{Text: text})
	m.statusOwner = m.Top()
}

// nothingToOpen answers enter where the page names no use for it.
const nothingToOpen = keys.NothingToOpen

// runChore runs, as a task, the chore the page's hint asks for (a sync of
// the audit mirror, an access crawl) when the session can run it here
// (the demo); otherwise it says why not, in one line.
func (m *Model) runChore(top page.Page) tea.Cmd {
	ch := page.ChoreNone
	if h, ok := top.(page.ChoreHinter); ok {
		ch = h.Chore()
	}
	switch {
	case ch == page.ChoreNone:
		m.flash(m.env.Keys.RunHere.Help().Key + ": no sync or crawl is asked for here")
		return nil
	case !m.env.Chores.Has(ch):
		m.flash(m.env.Keys.RunHere.Help().Key + ": this session runs no " + string(ch) + " itself: run `vaultdeck " + string(ch) + "` in a shell")
		return nil
	case m.env.Chores.Running(ch):
		m.flash(m.env.Keys.RunHere.Help().Key + ": the " + string(ch) + " is already running here")
		return nil
	}
	return m.env.Chores.Start(ch)
}

// Status is the status line's text (an answer, a notice, an error), ""
// while the footer shows keys: what a key said, for the walks that hold
// every key to acting or answering.
func (m *Model) Status() string { return m.status }
