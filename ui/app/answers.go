package app

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Every key acts or says in one line why not (issue 29.3): a key this
// session turned off, enter where the page names no use for it, the
// chore key where no hint asks for one.

// here is what the page on top offers, for keys.Map.Answer: the root's
// keys, the page's help and context keys; what acts now is its context
// keys, when it names them.
func (m *Model) here(top page.Page) keys.Here {
	h := keys.Here{Offers: m.env.Keys.Global()}
	if top == nil {
		return h
	}
	h.Route, _, _ = strings.Cut(m.opened[top], " ")
	h.Offers = append(h.Offers, top.Help()...)
	if kh, ok := top.(page.KeyHinter); ok {
		h.Acts, h.Hinted = kh.ContextKeys(), true
		h.Offers = append(h.Offers, h.Acts...)
	}
	return h
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
		m.flash(m.env.Keys.RunHere.Help().Key + ": the " + string(ch) + " is already running here; its outcome shows on this line when it ends")
		return nil
	}
	return m.env.Chores.Start(ch)
}

// Status is the status line's text (an answer, a notice, an error), ""
// while the footer shows keys: what a key said, for the walks that hold
// every key to acting or answering.
func (m *Model) Status() string { return m.status }
