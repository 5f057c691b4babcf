package projectsview

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Issue 29 item 2: at 60 columns the list cut the names ("Acme
// Cor…tigation") while the created column kept its full "2025-01-01": the
// date gives way (to "01-01", then altogether) before a name does; the
// counts (priority 1) stay beside the names.
func TestNarrowListShortensDatesBeforeNames(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	th, err := themes.New(r, "dark", false)
	if err != nil {
		t.Fatal(err)
	}
	at := api.Time{Time: time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)}
	tb := widgets.NewTable(th, keys.New(false), 1, Columns())
	tb.SetRows(Rows([]api.Project{
		{ID: "p1", Name: "Acme Corp Litigation", FilesCount: 3, SizeBytes: 1 << 20, CreatedAt: at, CreatorEmail: "m.castellano@harrowgate-law.com"},
		{ID: "p2", Name: "Bellhaven Shipping v. Brandt", FilesCount: 12, SizeBytes: 5 << 20, CreatedAt: at, CreatorEmail: "z.lombardi@harrowgate-law.com"},
	}))
	// at 66 the date fits shortened; at 60 it goes (the names and the
	// counts fill the line)
	for _, c := range []struct {
		width int
		date  bool
	}{{66, true}, {60, false}} {
		tb.SetSize(c.width, 16)
		v := tb.View()
		if !strings.Contains(v, "Acme Corp Litigation") || !strings.Contains(v, "Bellhaven Shipping v. Brandt") || !strings.Contains(v, "5.2 MB") {
			t.Errorf("at %d columns a name or a count is cut while the date could give way:\n%s", c.width, v)
		}
		if strings.Contains(v, "2025-01-01") || c.date != strings.Contains(v, "01-01") {
			t.Errorf("at %d columns the created date is not shortened to \"01-01\" (shown: %v):\n%s", c.width, c.date, v)
		}
	}
}
