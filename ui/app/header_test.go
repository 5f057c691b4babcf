package app_test

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// The header of an SSH session gives way by priority, never by cutting
// what matters: at 80 and 120 columns the READ-ONLY badge and the vault
// budget stay, and the key's comment and fingerprint go first.
func TestHeaderKeepsBadgeAndBudgetOverSSH(t *testing.T) {
	const session = "key alice@harrowgate-laptop SHA256:Vf3bKq13PVx9TgQjJ8Zr0pLw2YkHcN7sDmE4aUoB1iA · session token"
	fake := &pagetest.Fake{BudgetStatus: api.BudgetStatus{Limit: 10, Remaining: 7}}
	for _, width := range []int{80, 120} {
		m := app.New(pagetest.Env(t, fake, true), app.Config{
			Profile: "eu-prod", Region: "eu", Workspace: "Harrowgate LLP", Session: session,
		})
		m.Update(tea.WindowSizeMsg{Width: width, Height: 24})
		header, _, _ := strings.Cut(ansi.Strip(m.View()), "\n")
		for _, want := range []string{"vaultdeck", "READ-ONLY", "vault 7/10", "eu-prod", "eu"} {
			if !strings.Contains(header, want) {
				t.Errorf("%d columns: %q is gone from the header %q", width, want, header)
			}
		}
		if w := ansi.StringWidth(header); w > width {
			t.Errorf("%d columns: the header is %d wide", width, w)
		}
		if strings.Contains(header, "…") {
			t.Errorf("%d columns: the header was cut rather than given way: %q", width, header)
		}
	}
	// wide enough, everything is there
	m := app.New(pagetest.Env(t, fake, true), app.Config{Profile: "eu-prod", Region: "eu", Workspace: "Harrowgate LLP", Session: session})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 24})
	if header, _, _ := strings.Cut(ansi.Strip(m.View()), "\n"); !strings.Contains(header, session) || !strings.Contains(header, "Harrowgate LLP") {
		t.Errorf("200 columns: %q", header)
	}
}
