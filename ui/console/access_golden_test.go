package console

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// seedAccess writes two finished access snapshots of profile "sim" into
// the store, as two crawls would: 14 people over 6 projects, then a day
// later one grant gained, one lost and one READ -> MANAGE. The names are
// long and one carries an escape sequence, as the service may send.
func seedAccess(t *testing.T, st *store.Store) {
	t.Helper()
	projects := []string{"Acme Corp v. Halvorsen — Patent Litigation", "Northwind Data Room — Processing Backlog",
		"Example Project — Vault Walkthrough", "Bluefin Capital Acquisition of Meridian Holdings (Project Heron)",
		"Employment Matters 2024", "\x1b[2JCleared screen"}
	grant := func(p, u int, lvl string) store.AccessGrant {
		return store.AccessGrant{ProjectID: fmt.Sprintf("00000000-0000-4000-8000-%012d", p), ProjectName: projects[p],
			UserID: fmt.Sprintf("u%d", u), Email: fmt.Sprintf("person.%02d@harrowgate-law.com", u),
			Name: fmt.Sprintf("Person %02d With A Rather Long Name", u), AccessLevel: lvl}
	}
	day1 := []store.AccessGrant{}
	for p := range projects {
		for u := 0; u < 14; u++ {
			if (p+u)%3 != 0 {
				lvl := "READ"
				if u%4 == 0 {
					lvl = "MANAGE"
				}
				day1 = append(day1, grant(p, u, lvl))
			}
		}
	}
	write := func(at time.Time, gs []store.AccessGrant) {
		sn, err := st.OpenAccessSnapshot("sim", "golden", at, at.Add(time.Minute), nil)
		if err != nil {
			t.Fatal(err)
		}
		for p := range projects {
			pr := store.AccessProject{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", p), Name: projects[p], UpdatedAt: "t"}
			var mine []store.AccessGrant
			for _, g := range gs {
				if g.ProjectID == pr.ID {
					mine = append(mine, g)
				}
			}
			if err := st.CommitAccessProject(sn.ID, pr, mine); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.FinishAccessSnapshot(sn.ID, at.Add(40*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	write(pagetest.Now.Add(-48*time.Hour), day1)
	day2 := append([]store.AccessGrant{grant(0, 3, "MANAGE")}, day1[1:]...) // day1[0] (project 0, person 1) lost
	for i, g := range day2 {
		if g.ProjectID == grant(1, 0, "").ProjectID && g.Email == grant(1, 1, "").Email {
			day2[i].AccessLevel = "MANAGE" // was READ
		}
	}
	write(pagetest.Now.Add(-24*time.Hour), day2)
}

// TestGoldenAccess keeps the Access view's three screens at 80x24.
func TestGoldenAccess(t *testing.T) {
	for _, c := range []struct {
		name  string
		steps []step
	}{
		{"access_people", []step{{wait: "14 people"}}},
		{"access_person", []step{{wait: "14 people"}, {send: []tea.Msg{tea.KeyMsg{Type: tea.KeyEnter}}, wait: "enter open project"}}},
		{"access_changes", []step{{wait: "14 people"}, {send: []tea.Msg{tea.KeyMsg{Type: tea.KeyTab}}, wait: "1 gained"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newScreen(t, false)
			seedAccess(t, s.opts.Journal)
			tm := s.open(t, "access", "", 80, 24)
			for _, st := range c.steps {
				for _, msg := range st.send {
					tm.Send(msg)
				}
				waitFor(t, tm, st.wait, st.also)
			}
			checkScreen(t, final(t, tm))
		})
	}
}
