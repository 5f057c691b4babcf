package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
)

// A page's notice ("wrote 11 rows to ./vaultdeck-recycle-bin-….csv") is
// news of the key that caused it: at 80 columns it left the footer room
// for '? help' alone, and it stayed through p, b, enter on a deleter and
// esc, so the bin's keys (enter, p, b) were never named again on that
// page. The next key that acts on the page takes it away, as an error's.
func TestPageNoticeLeavesAtTheNextKey(t *testing.T) {
	now := func() time.Time { return pagetest.Now }
	c := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: now}}).Client
	m := app.New(pagetest.Env(t, c, false).WithConn(&account.Conn{Profile: "sim", Where: "local", Workspace: "W"}), app.Config{Start: "bin",
		ExportDir: t.TempDir(), Routes: []app.Route{{Name: "bin", New: recyclebinview.New}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "entries")
	tm.Send(runes("e"))
	waitFor(t, tm, "wrote")
	tm.Send(runes("p"))
	tm.Send(runes("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	ls := strings.Split(ansi.Strip(fm.View()), "\n")
	if f := ls[len(ls)-1]; strings.Contains(f, "wrote") || !strings.Contains(f, "b by deleter") {
		t.Errorf("after p the footer is %q: the export's notice stayed in place of the bin's keys", f)
	}
}
