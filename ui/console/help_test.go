package console

import (
	"context"
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Help's command list: one row per command, its arguments after the name,
// its aliases once, the descriptions in one column, within 80 columns.
func TestHelpCommandsOneRowEach(t *testing.T) {
	o := Options{Backend: &pagetest.Fake{BudgetStatus: api.BudgetStatus{Unlimited: true}}, Conn: &account.Conn{Workspace: "W"}, Start: "audit"}
	m, err := NewModel(context.Background(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 80})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	descAt := -1
	for _, r := range routes(o) {
		var rows []string
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), ":"+r.Name+" ") {
				if i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "also :") {
					l += "\n" + lines[i+1] // aliases that did not fit beside the description
				}
				rows = append(rows, l)
			}
		}
		if len(rows) != 1 {
			t.Errorf(":%s has %d rows in help, want 1: %q", r.Name, len(rows), rows)
			continue
		}
		row := rows[0]
		for _, l := range strings.Split(row, "\n") {
			if ansi.StringWidth(l) > 80 {
				t.Errorf("line wider than 80: %q", l)
			}
		}
		for _, a := range r.Aliases {
			if n := strings.Count(row+" ", " :"+a+" "); n != 1 {
				t.Errorf("alias :%s appears %d times in %q", a, n, row)
			}
		}
		if strings.Count(row+" ", ":"+r.Name+" ") != 1 {
			t.Errorf("the name %s is repeated in %q", r.Name, row)
		}
		at := strings.Index(row, r.Help)
		if at >= 0 {
			at = ansi.StringWidth(row[:at]) // in columns: "…" is one column, three bytes
		}
		if r.Help == "" || at < 0 {
			t.Errorf("description %q not in %q", r.Help, row)
			continue
		}
		if descAt >= 0 && at != descAt {
			t.Errorf("descriptions not aligned: %q at %d, others at %d", row, at, descAt)
		}
		descAt = at
	}
	var upload string
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), ":upload ") {
			upload = l
		}
	}
	if !strings.Contains(upload, ":upload PROJECT-ID") {
		t.Errorf(":upload listed without its argument: %q", upload)
	}
}
