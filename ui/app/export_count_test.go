package app_test

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
)

// TestExportOfOneRowSaysRow: the status line counts in English ("wrote 1
// row", not "wrote 1 rows").
func TestExportOfOneRowSaysRow(t *testing.T) {
	now := func() time.Time { return pagetest.Now }
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: now}})
	id, err := e.Sim.AddProject(sim.ProjectSpec{Name: "Only One QQ"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Client.DeleteProject(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	e.Sim.Advance(time.Minute) // the deletion reaches the bin
	env := pagetest.Env(t, e.Client, false)
	m := app.New(env.WithConn(&account.Conn{Profile: "sim", Where: "local", Workspace: "W"}), app.Config{Start: "bin", ExportDir: t.TempDir(),
		Routes: []app.Route{{Name: "bin", New: recyclebinview.New}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 30))
	waitFor(t, tm, "entries")
	tm.Send(runes("/"))
	tm.Send(runes("qq"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(runes("e"))
	waitFor(t, tm, "wrote 1 row to ")
	tm.Send(runes("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
