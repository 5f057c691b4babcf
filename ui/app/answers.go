package app

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Every key acts or says in one line why not (issue 29.3): a key this
// session turned off, enter where the page names no use for it, the
// chore key where no hint asks for one.

// offers reports whether key k is one of the root's keys or one the page
// lists in its help, enabled or not: a key this session turned off is
// answered where it would have acted (D on a project's page), and left to
// do nothing where it never means anything (D in the audit log).
func (m *Model) offers(top page.Page, k string) bool {
	bs := m.env.Keys.Global()
	if top != nil {
		bs = append(bs, top.Help()...)
	}
	for _, b := range bs {
		for _, bk := range b.Keys() {
			if bk == k {
				return true
			}
		}
	}
	return false
}

// flash shows a one-line notice owned by the page on top, which its next
// key takes away (updateTop).
func (m *Model) flash(text string) {
	m.setStatus(page.StatusMsg{Text: text})
	m.statusOwner = m.Top()
}

// nothingToOpen answers enter where the page names no use for it (a
// person's grant, an empty list): it did nothing, silently.
const nothingToOpen = "enter: nothing to open here"

// acts reports whether key k is one the page says acts now (its context
// keys); a page without them is taken at its word that it may.
func acts(top page.Page, k string) bool {
	h, ok := top.(page.KeyHinter)
	if !ok {
		return true
	}
	for _, b := range keys.Enabled(h.ContextKeys()...) {
		for _, bk := range b.Keys() {
			if bk == k {
				return true
			}
		}
	}
	return false
}

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
	}
	return m.env.Chores.Start(ch)
}
