package app_test

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
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
		m := app.New(pagetest.Env(t, fake, true).WithConn(&account.Conn{Profile: "eu-prod", Where: "eu", Workspace: "Harrowgate LLP", Session: session}), app.Config{})
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
	m := app.New(pagetest.Env(t, fake, true).WithConn(&account.Conn{Profile: "eu-prod", Where: "eu", Workspace: "Harrowgate LLP", Session: session}), app.Config{})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 24})
	if header, _, _ := strings.Cut(ansi.Strip(m.View()), "\n"); !strings.Contains(header, session) || !strings.Contains(header, "Harrowgate LLP") {
		t.Errorf("200 columns: %q", header)
	}
}

// A long warning (a token in a plain-text file) gives way before the
// workspace would have to: once it has left, the workspace and the key
// that left before it fit again and come back, and the warning keeps its
// short form (its words before the colon) where that fits. It took the
// key and the workspace with it: at 120 columns over SSH the header read
// "vaultdeck sim 127.0.0.1:33703 vault 10/10".
func TestHeaderPutsBackWhatFitsOnceALongPartLeft(t *testing.T) {
	const session = "key e2e@tmux SHA256:gkIC8SQHj…"
	const warning = `Insecure storage: the token for profile "sim" is in a plain-text file; run ` + "`vaultdeck login --profile sim`" + ` once a keyring works`
	fake := &pagetest.Fake{BudgetStatus: api.BudgetStatus{Limit: 10, Remaining: 9}}
	for _, tc := range []struct {
		width int
		want  []string
	}{
		// at 80 the budget keeps its word and drops its limit (TestBudgetSaysLeftAtEveryWidth)
		{80, []string{"sim", "127.0.0.1:33703", "Harrowgate LLP", "⚠ Insecure storage", "vault 9 left"}},
		{120, []string{"sim", "127.0.0.1:33703", session, "Harrowgate LLP", "⚠ Insecure storage", "vault 9/10 left"}},
	} {
		m := app.New(pagetest.Env(t, fake, false).WithConn(&account.Conn{
			Profile: "sim", Where: "127.0.0.1:33703", Workspace: "Harrowgate LLP", Session: session, Warning: warning,
		}), app.Config{})
		m.Update(tea.WindowSizeMsg{Width: tc.width, Height: 24})
		header, _, _ := strings.Cut(ansi.Strip(m.View()), "\n")
		for _, want := range tc.want {
			if !strings.Contains(header, want) {
				t.Errorf("%d columns: %q is gone from the header %q", tc.width, want, header)
			}
		}
		if w := ansi.StringWidth(header); w > tc.width {
			t.Errorf("%d columns: the header is %d wide", tc.width, w)
		}
	}
}

// TestBudgetSaysLeftAtEveryWidth: the header's budget says it counts what
// is left (issue 29.8) at every width. Seen by hand: 'vault 10/10 left' at
// 120 columns, but 'vault 10/10' at 80 (with the plain-text token's
// warning) and at 60, the word having given way first. Where the whole
// line does not fit, the budget keeps 'left' and drops the limit: 'vault
// 10 left'.
func TestBudgetSaysLeftAtEveryWidth(t *testing.T) {
	const warning = `Insecure storage: the token for profile "sim" is in a plain-text file; run ` + "`vaultdeck login --profile sim`" + ` once a keyring works`
	for _, left := range []int{10, 0} {
		fake := &pagetest.Fake{BudgetStatus: api.BudgetStatus{Limit: 10, Remaining: left}}
		for _, width := range []int{60, 80, 120} {
			m := app.New(pagetest.Env(t, fake, false).WithConn(&account.Conn{
				Profile: "sim", Where: "127.0.0.1:43663", Workspace: "Harrowgate LLP", Warning: warning,
			}), app.Config{})
			m.Update(tea.WindowSizeMsg{Width: width, Height: 24})
			header, _, _ := strings.Cut(ansi.Strip(m.View()), "\n")
			if !strings.Contains(header, fmt.Sprintf("vault %d", left)) || !strings.Contains(header, " left") {
				t.Errorf("%d columns, %d left: the budget does not say what it counts: %q", width, left, header)
			}
			if w := ansi.StringWidth(header); w > width {
				t.Errorf("%d columns: the header is %d wide", width, w)
			}
		}
	}
}
