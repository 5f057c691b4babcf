package widgets

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/keys"
)

func typeInto(c *Confirm, s string) {
	for _, r := range s {
		c.Update(runes(string(r)))
	}
}

func TestConfirmNeedsExactText(t *testing.T) {
	c := NewConfirm(testTheme(t), "Delete project", "Acme has 3 files.", "Acme")
	typeInto(c, "acne")
	if c.Update(enter) != Undecided {
		t.Fatal("different text confirmed")
	}
	if !strings.Contains(c.View(80), "does not match") {
		t.Error("mismatch not explained")
	}
	for range 4 {
		c.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	typeInto(c, "Acme")
	if c.Update(enter) != Confirmed {
		t.Fatal("exact text not confirmed")
	}
	if NewConfirm(testTheme(t), "", "", "x").Update(esc) != Cancelled {
		t.Fatal("esc did not cancel")
	}
}

func TestCommandLineCompletion(t *testing.T) {
	c := NewCommandLine(testTheme(t), []string{"projects", "project", "recyclebin", "files"})
	c.Update(runes("r"))
	c.Update(tea.KeyMsg{Type: tea.KeyTab})
	if c.Value() != "recyclebin " {
		t.Errorf("tab gave %q", c.Value())
	}
	c = NewCommandLine(testTheme(t), []string{"projects", "project"})
	c.Update(runes("p"))
	c.Update(tea.KeyMsg{Type: tea.KeyTab})
	if c.Value() != "project" {
		t.Errorf("common prefix %q", c.Value())
	}
	c.Update(tea.KeyMsg{Type: tea.KeyTab})
	c.Update(tea.KeyMsg{Type: tea.KeyTab})
	if c.Value() != "projects" {
		t.Errorf("cycling gave %q", c.Value())
	}
	if line, done, cancelled := c.Update(enter); !done || cancelled || line != "projects" {
		t.Errorf("enter: %q %v %v", line, done, cancelled)
	}
}

func TestLoaderTicksOnlyWhileLoading(t *testing.T) {
	l := NewLoader(testTheme(t))
	cmd := l.Start()
	if cmd == nil || l.Start() != nil {
		t.Fatal("Start should arm exactly one tick")
	}
	tick := cmd().(spinner.TickMsg)
	if l.Update(tick) == nil {
		t.Fatal("loading loader should re-arm")
	}
	l.Done()
	l.Done()
	if l.Update(spinner.TickMsg{ID: tick.ID, Time: tick.Time}) != nil || l.View() != "" {
		t.Fatal("idle loader must not tick")
	}
	if l.Start() == nil {
		t.Fatal("restart after idle should arm a tick again")
	}
}

func TestHelpViewSkipsDisabled(t *testing.T) {
	km := keys.New(true)
	out := HelpView(testTheme(t), 80, []HelpGroup{{Title: "project", Bindings: []key.Binding{km.Delete, km.Refresh}}})
	if strings.Contains(out, "delete project") || !strings.Contains(out, "refresh") {
		t.Errorf("help: %s", out)
	}
}
