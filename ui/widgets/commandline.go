package widgets

import (
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/themes"
)

// CommandLine is the `:` prompt. Tab completes the command word from the
// known commands (longest common prefix, then cycling through matches).
type CommandLine struct {
	theme    themes.Theme
	input    Input
	commands []string
	cycle    []string // matches being cycled by repeated tab
	cycleAt  int
}

// NewCommandLine returns a command line completing from commands.
func NewCommandLine(th themes.Theme, commands []string) *CommandLine {
	cs := append([]string(nil), commands...)
	sort.Strings(cs)
	c := &CommandLine{theme: th, commands: cs, input: Input{Prompt: ":", PromptStyle: th.Input, CursorStyle: th.TextCursor, CharLimit: 20000}}
	c.input.Focus()
	return c
}

// NewPrompt is a command line with its own prompt ("save view as: "),
// completing from words (the names already taken, to replace one).
func NewPrompt(th themes.Theme, prompt string, words []string) *CommandLine {
	c := NewCommandLine(th, words)
	c.input.Prompt = prompt
	return c
}

// Update handles a key. done is true on enter (line holds the command) or
// esc (cancelled is true).
func (c *CommandLine) Update(msg tea.KeyMsg) (line string, done, cancelled bool) {
	switch msg.Type {
	case tea.KeyEsc:
		return "", true, true
	case tea.KeyEnter:
		return strings.TrimSpace(c.input.Value()), true, false
	case tea.KeyTab:
		c.complete()
		return "", false, false
	}
	c.cycle = nil
	c.input.Update(msg)
	return "", false, false
}

func (c *CommandLine) complete() {
	v := c.input.Value()
	if strings.Contains(v, " ") {
		return // arguments are free text
	}
	if c.cycle != nil {
		c.cycleAt = (c.cycleAt + 1) % len(c.cycle)
		c.input.SetValue(c.cycle[c.cycleAt])
		return
	}
	m := c.Matches()
	switch len(m) {
	case 0:
		return
	case 1:
		c.input.SetValue(m[0] + " ")
		return
	}
	if p := commonPrefix(m); len(p) > len(v) {
		c.input.SetValue(p)
		return
	}
	c.cycle, c.cycleAt = m, 0
	c.input.SetValue(m[0])
}

// Matches lists the commands starting with the typed word.
func (c *CommandLine) Matches() []string {
	v := strings.TrimSpace(c.input.Value())
	var m []string
	for _, cmd := range c.commands {
		if strings.HasPrefix(cmd, v) {
			m = append(m, cmd)
		}
	}
	return m
}

// Value returns the typed text.
func (c *CommandLine) Value() string { return c.input.Value() }

// View renders the prompt and, after it on the same line, the matching
// commands (the command line has one row: the status line's).
func (c *CommandLine) View() string {
	hint := ""
	if !strings.Contains(c.input.Value(), " ") {
		hint = "  " + c.theme.Muted.Render(strings.Join(c.Matches(), "  "))
	}
	return c.input.View() + hint
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}
