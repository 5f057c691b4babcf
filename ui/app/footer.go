// The footer's context line: the keys that act on what is on screen, made
// from the key map (ui/keys), so read-only removes a key here as it does
// everywhere, and the line never offers a key that does nothing.
package app

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// contextKeys is what the footer offers now, most useful first, and the key
// that ends the line whatever else fits ("? help": it lists the rest).
func (m *Model) contextKeys() ([]key.Binding, key.Binding) {
	k := m.env.Keys
	switch {
	case m.errPane != nil:
		return []key.Binding{keys.Hint(k.Down, "scroll")}, keys.Hint(k.Back, "close")
	case m.help:
		return []key.Binding{keys.Hint(k.Down, "scroll")}, keys.Hint(k.Back, "close help")
	}
	top := m.Top()
	var local []key.Binding
	if h, ok := top.(page.KeyHinter); ok {
		local = h.ContextKeys()
	} else if top != nil {
		local = top.Help()
	}
	if c, ok := top.(page.InputCapturer); ok && c.CapturesInput() {
		// every key is the input's: ? and q are text here, not help and quit
		if _, ok := top.(page.KeyHinter); !ok || len(local) == 0 {
			local = []key.Binding{keys.Hint(k.Enter, "confirm"), keys.Hint(k.Back, "cancel")}
		}
		return local, key.Binding{}
	}
	if s, ok := top.(page.Selector); ok && s.SelectedID() != "" {
		local = append(local, keys.Hint(k.Copy, "copy ID"))
	}
	local = append(local, keys.Hint(k.Command, "command"))
	// while the page wants esc, esc is the page's (close, clear, stop) and
	// only the page can say what it does
	if e, ok := top.(page.EscHandler); len(m.stack) > 1 && !(ok && e.WantsEsc()) {
		local = append(local, keys.Hint(k.Back, "back"))
	}
	local = append(local, keys.Hint(k.Quit, "quit"))
	return local, keys.Hint(k.Help, "help")
}

// keyLine renders the context line in width columns.
func (m *Model) keyLine(width int) string {
	bs, last := m.contextKeys()
	return widgets.KeyLine(m.env.Theme, width, bs, last)
}

// withKeys puts the context line after a status line, in the room the
// status leaves: the status comes first and is never cut for the keys.
func (m *Model) withKeys(status string) string {
	room := m.width - lipgloss.Width(status) - 3
	if room < 6 {
		return status
	}
	return status + m.env.Theme.Muted.Render(" │ ") + m.keyLine(room)
}
