package widgets

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/vaultdeck/vaultdeck/themes"
)

// Over SSH every session has its own renderer; a widget that styles through
// lipgloss's global renderer describes the server's terminal instead. Here
// the global renderer and the session's disagree, and every widget must
// follow the session's.
func TestWidgetsUseTheProgramsRenderer(t *testing.T) {
	global := lipgloss.DefaultRenderer()
	prev := global.ColorProfile()
	t.Cleanup(func() { global.SetColorProfile(prev) })

	session := lipgloss.NewRenderer(io.Discard)
	session.SetColorProfile(termenv.Ascii)
	global.SetColorProfile(termenv.TrueColor) // the "server's terminal"
	th, err := themes.New(session, "mono", false)
	if err != nil {
		t.Fatal(err)
	}

	in := Input{Prompt: "/", PromptStyle: th.Input, CursorStyle: th.TextCursor}
	in.Focus()
	c := NewConfirm(th, "Delete", "a message that wraps at the dialog's width", "x")
	help := HelpView(th, 80, []HelpGroup{{Title: "g", Bindings: []key.Binding{
		key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
	}}})
	for name, out := range map[string]string{"input": in.View(), "dialog": c.View(60), "help": help,
		"place": th.Renderer.Place(20, 3, lipgloss.Center, lipgloss.Center, "x")} {
		if strings.Contains(out, "\x1b[") {
			t.Errorf("%s carries escape sequences of the global renderer's profile: %q", name, out)
		}
	}

	// and the other way round: a colour session gets its attributes even
	// when the global renderer (the server's stdout) has none.
	global.SetColorProfile(termenv.Ascii)
	session.SetColorProfile(termenv.TrueColor)
	th, _ = themes.New(session, "mono", false)
	in = Input{Prompt: "/", PromptStyle: th.Input, CursorStyle: th.TextCursor}
	in.Focus()
	if !strings.Contains(in.View(), "\x1b[7m") {
		t.Errorf("the text cursor lost its reverse video on a colour session: %q", in.View())
	}
}
