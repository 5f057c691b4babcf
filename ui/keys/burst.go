package keys

import tea "github.com/charmbracelet/bubbletea"

// Each is the keys of msg one at a time. Keys that arrive in one read (fast
// typing, key repeat over SSH, tmux send-keys) come from Bubble Tea v1 as
// ONE KeyMsg with several runes, which matches no binding as a whole. The
// root splits them while no input has the keyboard; a view that holds the
// keyboard without being a text input (a picker, a list) splits them here,
// or a burst of "jjjj" moves nothing. A bracketed paste is text, never
// keys: it comes back whole, to be ignored by a list.
func Each(msg tea.KeyMsg) []tea.KeyMsg {
	if msg.Type != tea.KeyRunes || len(msg.Runes) <= 1 || msg.Paste {
		return []tea.KeyMsg{msg}
	}
	out := make([]tea.KeyMsg, len(msg.Runes))
	for i, r := range msg.Runes {
		out[i] = msg
		out[i].Runes = []rune{r}
	}
	return out
}
