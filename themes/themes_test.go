package themes

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func renderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	return r
}

func TestNewAllNames(t *testing.T) {
	for _, n := range Names() {
		th, err := New(renderer(), n, false)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if th.Name == "" || th.Name == "auto" {
			t.Errorf("%s resolved to %q", n, th.Name)
		}
	}
	if _, err := New(renderer(), "neon", false); err == nil {
		t.Error("unknown theme accepted")
	}
}

func TestNoColorForcesMono(t *testing.T) {
	th, err := New(renderer(), "dark", true)
	if err != nil || th.Name != "mono" {
		t.Fatalf("got %q, %v", th.Name, err)
	}
	out := th.Alarm.Render("x") + th.SelectedRow.Render("y") + th.Badge.Render("z")
	if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
		t.Errorf("mono emits colour: %q", out)
	}
	if !NoColorFromEnv(func(string) string { return "1" }) || NoColorFromEnv(func(string) string { return "" }) {
		t.Error("NO_COLOR not honoured")
	}
}
