package accessview

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29.2, seen by hand at 80x24: a person's projects spent 36 cells on
// a PROJECT ID (middle-cut at narrower widths) while the project names
// beside it were cut ("Acme Corp v. Halv…atent Litigation"). An ID gives
// way to the name it identifies: at 80 and 60 columns every name is whole.
func TestPersonProjectsKeepNamesWholeBeforeIDs(t *testing.T) {
	st, email, _ := twoSnapshots(t)
	for _, width := range []int{80, 60} {
		m := New(pagetest.Env(t, &pagetest.Fake{}, false), Deps{Store: st, Profile: "work"})
		m.SetSize(width, 24)
		run(t, m, m.Init())
		for i := 0; i < 300; i++ {
			if r, _ := m.Table.Selected(); r.ID == strings.ToLower(email) {
				break
			}
			m.Update(tea.KeyMsg{Type: tea.KeyDown})
		}
		run(t, m, func() tea.Msg { return tea.KeyMsg{Type: tea.KeyEnter} })
		v := m.View()
		var b bytes.Buffer
		if err := m.Table.Export().WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&b).ReadAll()
		if err != nil || len(recs) < 2 {
			t.Fatalf("%d columns: no projects for %s (%v):\n%s", width, email, err, v)
		}
		for _, r := range recs[1:] {
			if name := r[0]; len(name) < width-12 && !strings.Contains(v, name) {
				t.Errorf("%d columns: the project name %q is cut:\n%s", width, name, v)
			}
		}
	}
}
