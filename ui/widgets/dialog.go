package widgets

import (
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
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
// typed text matches Expect (after Fold), so a destructive action cannot be
// confirmed by a stray enter. An empty Expect never confirms. Esc cancels.
type Confirm struct {
	Title   string
	Message string // may span lines; must already be sanitized
	Expect  string // what the user has to type (e.g. the project name)
	theme   themes.Theme
	input   Input
	nope    bool // enter was pressed on a mismatch
	// msg scrolls the message with the arrow and page keys when the
	// terminal is too small for it; letters go to the input.
	msg *Scroll
}

// NewConfirm builds a dialog asking to type expect.
//
// The dialog itself says what to type ("Type 2 to confirm, esc to
// cancel."): a message that says it too (the re-upload's did, so it read
// twice) has that sentence taken out.
func NewConfirm(th themes.Theme, title, message, expect string) *Confirm {
	message = strings.TrimSpace(strings.ReplaceAll(message, "Type "+expect+" to confirm.", ""))
	c := &Confirm{Title: title, Message: message, Expect: expect, theme: th,
		input: Input{Prompt: "> ", PromptStyle: th.Input, CursorStyle: th.TextCursor, CharLimit: 500}}
	c.input.Focus()
	return c
}

// Fold maps what people type and what names contain to one form: every
// Unicode dash to "-", single and double quotes (curly, primes, guillemets)
// to ' and ", any run of whitespace (no-break spaces too) to one space,
// trimmed, in lower case. Seeded and real names carry em dashes and curly
// quotes that most keyboards cannot type.
func Fold(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f' || r == '\u2007':
			space = true
			continue
		case unicode.Is(unicode.Pd, r) || r == '\u2212' || r == '\u2043':
			r = '-'
		case strings.ContainsRune("‘’‚‛′‵`´‹›", r):
			r = '\''
		case strings.ContainsRune("“”„‟″‶«»", r):
			r = '"'
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Matches reports whether typed confirms expect.
func Matches(expect, typed string) bool {
	want := Fold(expect)
	return want != "" && Fold(typed) == want
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
		if Matches(c.Expect, c.input.Value()) {
			return Confirmed
		}
		c.nope = true
		return Undecided
	case tea.KeyUp, tea.KeyDown, tea.KeyPgUp, tea.KeyPgDown:
		if c.msg != nil {
			c.msg.Update(k)
		}
		return Undecided
	}
	if c.input.Update(k) {
		c.nope = false
	}
	return Undecided
}

// View renders the dialog box, at most width cells wide, as tall as it needs.
func (c *Confirm) View(width int) string { return c.ViewSized(width, 0) }

// ViewSized renders the dialog in at most width x height cells (height 0:
// no limit). The instruction, the input line and a mismatch notice always
// show; the title and the message give way first, and the message scrolls
// (↑/↓, pgup/pgdn) when it does not fit.
func (c *Confirm) ViewSized(width, height int) string {
	th := c.theme
	frameW, frameH := th.Dialog.GetHorizontalFrameSize(), th.Dialog.GetVerticalFrameSize()
	inner := max(min(width-frameW, 72), 8)
	wrap := func(s string) string { return th.Plain.Width(inner).Render(s) }

	var bottom []string
	if Fold(c.Expect) == "" {
		bottom = append(bottom, wrap(th.Error.Render("There is nothing to type: this cannot be confirmed. esc to cancel.")))
	} else {
		bottom = append(bottom, wrap("Type "+th.Warn.Render(c.Expect)+" to confirm, esc to cancel."))
	}
	c.input.Width = max(inner-ansi.StringWidth(c.input.Prompt)-1, 1)
	bottom = append(bottom, c.input.View())
	if c.nope {
		bottom = append(bottom, wrap(th.Error.Render("That does not match; nothing was done.")))
	}
	low := strings.Join(bottom, "\n")
	title := th.Title.Render(ansi.Truncate(c.Title, inner, "…"))
	message := wrap(c.Message)

	if height <= 0 || lipgloss.Height(title)+lipgloss.Height(message)+lipgloss.Height(low)+2+frameH <= height {
		return th.Dialog.Render(title + "\n\n" + message + "\n\n" + low)
	}
	if lipgloss.Height(low)+frameH > height {
		// Tiny: no frame, and the input line with the notice under it
		// stays even when the instruction has to lose its first lines.
		lines := strings.Split(low, "\n")
		return strings.Join(lines[max(len(lines)-height, 0):], "\n")
	}
	// Too small: the message scrolls in whatever room the rest leaves.
	room := height - frameH - lipgloss.Height(low)
	var top []string
	if room >= 4 {
		top = append(top, title)
		room--
	}
	if room >= 2 {
		if c.msg == nil {
			c.msg = NewScroll(th, keys.New(false)) // only arrows and pages reach it
		}
		c.msg.SetContent(c.Message)
		c.msg.SetSize(inner, room-1)
		top = append(top, c.msg.View())
		top = append(top, "") // a blank line before the instruction
	}
	body := low
	if len(top) > 0 {
		body = strings.Join(top, "\n") + "\n" + low
	}
	return th.Dialog.Render(body)
}
