package widgets

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/themes"
)

// Answer is what a dialog decided after a key press.
type Answer uint8

// Dialog answers.
const (
	Undecided Answer = iota
	Confirmed
	Cancelled
)

// Confirm is a typed-confirmation dialog: enter confirms only when the
// typed text equals Expect exactly, so a destructive action cannot be
// confirmed by a stray enter. Esc cancels.
type Confirm struct {
	Title   string
	Message string // may span lines; must already be sanitized
	Expect  string // what the user has to type (e.g. the project name)
	theme   themes.Theme
	input   Input
	nope    bool // enter was pressed on a mismatch
}

// NewConfirm builds a dialog asking to type expect.
func NewConfirm(th themes.Theme, title, message, expect string) *Confirm {
	c := &Confirm{Title: title, Message: message, Expect: expect, theme: th,
		input: Input{Prompt: "> ", PromptStyle: th.Input, CursorStyle: th.TextCursor, CharLimit: 500}}
	c.input.Focus()
	return c
}

// Update handles one key press and reports the answer.
func (c *Confirm) Update(msg tea.Msg) Answer {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return Undecided
	}
	switch k.Type {
	case tea.KeyEsc:
		return Cancelled
	case tea.KeyEnter:
		if c.input.Value() == c.Expect {
			return Confirmed
		}
		c.nope = true
		return Undecided
	}
	if c.input.Update(k) {
		c.nope = false
	}
	return Undecided
}

// View renders the dialog box, at most width cells wide.
func (c *Confirm) View(width int) string {
	inner := max(min(width-4, 72), 20)
	var b strings.Builder
	b.WriteString(c.theme.Title.Render(c.Title))
	b.WriteString("\n\n")
	b.WriteString(c.theme.Plain.Width(inner).Render(c.Message))
	b.WriteString("\n\nType ")
	b.WriteString(c.theme.Warn.Render(c.Expect))
	b.WriteString(" to confirm, esc to cancel.\n")
	b.WriteString(c.input.View())
	if c.nope {
		b.WriteString("\n" + c.theme.Error.Render("That does not match; nothing was done."))
	}
	return c.theme.Dialog.Render(b.String())
}
