package widgets

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Input is a one-line text input. bubbles/textinput is not used because it
// pulls a system-clipboard module the build does not carry, and a filter
// needs only typing, deletion and cursor movement. Pasted or typed control
// sequences never get in: only printable runes are inserted.
type Input struct {
	Prompt      string
	PromptStyle lipgloss.Style
	CursorStyle lipgloss.Style // from the program's theme (TextCursor), never the global renderer
	Placeholder string
	CharLimit   int
	Width       int

	value   []rune
	pos     int
	focused bool
}

// Value returns the text.
func (in *Input) Value() string { return string(in.value) }

// SetValue replaces the text and puts the cursor at its end.
func (in *Input) SetValue(s string) {
	in.value = []rune(s)
	in.pos = len(in.value)
}

// Focus gives the input the keyboard; Blur takes it away.
func (in *Input) Focus()        { in.focused = true; in.pos = len(in.value) }
func (in *Input) Blur()         { in.focused = false }
func (in *Input) Focused() bool { return in.focused }

// Update edits the text for one key press; it reports whether the text changed.
func (in *Input) Update(msg tea.KeyMsg) bool {
	before := string(in.value)
	switch msg.Type {
	case tea.KeyRunes, tea.KeySpace:
		runes := msg.Runes
		if msg.Type == tea.KeySpace {
			runes = []rune{' '}
		}
		for _, r := range runes {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				continue
			}
			if in.CharLimit > 0 && len(in.value) >= in.CharLimit {
				break
			}
			in.value = append(in.value[:in.pos], append([]rune{r}, in.value[in.pos:]...)...)
			in.pos++
		}
	case tea.KeyBackspace:
		if in.pos > 0 {
			in.value = append(in.value[:in.pos-1], in.value[in.pos:]...)
			in.pos--
		}
	case tea.KeyDelete:
		if in.pos < len(in.value) {
			in.value = append(in.value[:in.pos], in.value[in.pos+1:]...)
		}
	case tea.KeyLeft:
		in.pos = max(in.pos-1, 0)
	case tea.KeyRight:
		in.pos = min(in.pos+1, len(in.value))
	case tea.KeyHome, tea.KeyCtrlA:
		in.pos = 0
	case tea.KeyEnd, tea.KeyCtrlE:
		in.pos = len(in.value)
	case tea.KeyCtrlU:
		in.value = in.value[in.pos:]
		in.pos = 0
	case tea.KeyCtrlW:
		i := in.pos
		for i > 0 && in.value[i-1] == ' ' {
			i--
		}
		for i > 0 && in.value[i-1] != ' ' {
			i--
		}
		in.value = append(in.value[:i], in.value[in.pos:]...)
		in.pos = i
	}
	return string(in.value) != before
}

// View renders prompt, text and a block cursor when focused.
func (in *Input) View() string {
	var b strings.Builder
	b.WriteString(in.PromptStyle.Render(in.Prompt))
	if len(in.value) == 0 && !in.focused && in.Placeholder != "" {
		b.WriteString(in.Placeholder)
		return b.String()
	}
	b.WriteString(string(in.value[:in.pos]))
	if in.focused {
		cur := " "
		if in.pos < len(in.value) {
			cur = string(in.value[in.pos])
		}
		b.WriteString(in.CursorStyle.Render(cur))
		if in.pos < len(in.value) {
			b.WriteString(string(in.value[in.pos+1:]))
		}
	} else {
		b.WriteString(string(in.value[in.pos:]))
	}
	if in.Width > 0 {
		return ansi.Truncate(b.String(), in.Width+ansi.StringWidth(in.Prompt)+1, "…")
	}
	return b.String()
}

// Submitted is what Edit answers for enter: the text is final (a dialog's
// Confirmed). Esc answers Cancelled, any other key Undecided.
const Submitted = Confirmed

// Edit is the one enter/esc pattern of every text input of the console:
// enter submits and esc cancels (both take the focus away), any other key
// edits the text.
func (in *Input) Edit(msg tea.KeyMsg) Answer {
	switch msg.Type {
	case tea.KeyEnter:
		in.Blur()
		return Submitted
	case tea.KeyEsc:
		in.Blur()
		return Cancelled
	}
	in.Update(msg)
	return Undecided
}
