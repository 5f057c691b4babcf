package app_test

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
)

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// TestExportWritesTheViewAsShown: `e` on the recycle bin, filtered and
// sorted, writes exactly the rows shown, in their order, to a CSV file a
// CSV reader reads back cell for cell, a formula-like name neutralised
// and a name with a quote, a comma and a line break kept whole; the
// status line says where the file is.
func TestExportWritesTheViewAsShown(t *testing.T) {
	now := func() time.Time { return pagetest.Now }
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: now}})
	srv, c := e.Sim, e.Client
	names := []string{"=Zeta Holdings ZZ", "Quote \"Q\", Comma\nBreak ZZ", "Plain ZZ"}
	for _, n := range names {
		id, err := srv.AddProject(sim.ProjectSpec{Name: n})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.DeleteProject(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	srv.Advance(time.Minute)
	dir := t.TempDir()
	env := pagetest.Env(t, c, false)
	m := app.New(env.WithConn(&account.Conn{Profile: "sim", Where: "local", Workspace: "W"}), app.Config{Start: "bin", ExportDir: dir,
		Routes: []app.Route{{Name: "bin", New: recyclebinview.New}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 30))
	waitFor(t, tm, "entries")
	tm.Send(runes("/"))
	tm.Send(runes("zz"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(runes("o")) // sort by the first column, the project name
	tm.Send(runes("e"))
	waitFor(t, tm, "wrote 3 rows")
	tm.Send(runes("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	status := strings.Join(strings.Fields(fm.View()), " ")
	files, _ := filepath.Glob(filepath.Join(dir, "vaultdeck-recycle-bin-20250601-120000.csv"))
	if len(files) != 1 || !strings.Contains(status, "wrote 3 rows to "+files[0]) {
		t.Fatalf("files %v, status %q", files, status)
	}
	f, _ := os.Open(files[0])
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || !slices.Equal(recs[0], []string{"project", "deleted by", "deleted at (UTC)", "purge in", "purge at (UTC)", "files", "knowledge base", "project id"}) {
		t.Fatalf("records %q", recs)
	}
	got := []string{recs[1][0], recs[2][0], recs[3][0]}
	// sorted by name as shown: "=Zeta…" < "Plain…" < "Quote…". The export
	// is the command's --csv record (ui/csvsafe/records, issue 42: e and
	// --csv write the same bytes), so the name keeps its line break, quoted
	// as RFC 4180 says, where the screen shows a space
	want := []string{"'=Zeta Holdings ZZ", "Plain ZZ", "Quote \"Q\", Comma\nBreak ZZ"}
	if !slices.Equal(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	if !regexp.MustCompile(`^\d+d\d\dh$`).MatchString(recs[1][3]) {
		t.Errorf("purge in %q, want the countdown as shown (29d23h)", recs[1][3])
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v: the export holds workspace data", fi.Mode())
	}
}

// Over serve (no local files) the key writes nothing, says why in one
// line (issue 29.3: it did nothing, silently), and help does not list it.
func TestExportNotOfferedWithoutLocalFiles(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	env.Keys = keys.NewSession(keys.Session{NoLocalFiles: true})
	dir := t.TempDir()
	m := app.New(env.WithConn(&account.Conn{Profile: "p"}), app.Config{Start: "bin", ExportDir: dir, Routes: []app.Route{{Name: "bin", New: recyclebinview.New}}})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if _, cmd := m.Update(runes("e")); cmd != nil {
		t.Errorf("e did something: %T", cmd())
	}
	if v := m.View(); !strings.Contains(v, "e (export view to CSV) is off: served over SSH") {
		t.Errorf("e over serve said nothing:\n%s", v)
	}
	m.Update(runes("j")) // the notice leaves at the next key
	m.Update(runes("?"))
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("wrote %d files", len(entries))
	}
	if strings.Contains(m.View(), "export view") {
		t.Errorf("help offers export:\n%s", m.View())
	}
}
