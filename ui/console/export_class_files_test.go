package console_test

import (
	"github.com/vaultdeck/vaultdeck/api/account"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/filestatusview"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/uploadview"
)

// exportCase is one view in one state of TestEveryViewsExportIsItsCommandsCSV.
type exportCase struct {
	name string
	p    func() page.Page
}

// hostileName is a file name as a hostile or careless uploader gives it:
// a formula, a tab, a line break, a colour escape and a bidirectional
// override, each of which a terminal, a spreadsheet or a line-reading
// script takes for something else.
const hostileName = "=HYPERLINK(\"http://x.test\")\tcol\nline \x1b[31mred\x1b[0m \u202egnp.pdf"

// plantHostileProject adds a project of a hostile name (hostileName's
// parts behind a "Zz" that sorts it last); its ID.
func (h *equiv) plantHostileProject() string {
	h.t.Helper()
	id, err := h.sim.Sim.AddProject(sim.ProjectSpec{Name: "Zz " + hostileName})
	if err != nil {
		h.t.Fatal(err)
	}
	return id
}

// plantHostile plants a file of hostileName in project pid; its ID.
func (h *equiv) plantHostile(pid string) string {
	h.t.Helper()
	ids, err := h.sim.Sim.AddFiles(pid, []sim.FileSpec{{Name: hostileName, Status: sim.StatusProcessing}})
	if err != nil {
		h.t.Fatal(err)
	}
	return ids[0]
}

// journalCases are the file-status view opened from the upload journal
// (`:files` with no IDs), its command `status --journal`: an upload of
// four files through the command line (one of a local name with a tab and
// a line break), one of them then failed, one ready,
// two held processing past the stuck threshold (the clock moved on 45
// minutes, the console's with the service's), and one look since; and
// the session they run in (its profile's journal), where :NAME reopens them.
func (h *equiv) journalCases(t *testing.T, st *store.Store, pid string) ([]exportCase, page.Env) {
	dir := t.TempDir()
	for _, f := range []string{"a.pdf", "b.pdf", "sub/c.pdf", "d\t=cmd\nx.pdf"} { // the last a hostile local name
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte("content of "+f), 0o644)
	}
	once := func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil } // the first poll only
	env := h.env
	env.Now = h.sim.Sim.Now
	env.Conn = &account.Conn{Profile: equivProfile, DataProfile: equivProfile}
	uploaded := false
	upload := func() {
		if uploaded {
			return
		}
		uploaded = true
		h.cli("upload", pid, dir)
		runs, err := st.UploadRuns(equivProfile)
		if err != nil || len(runs) == 0 {
			t.Fatalf("no run journaled: %v", err)
		}
		files, _ := st.RunFiles(runs[len(runs)-1].ID)
		for i, f := range files {
			status := [...]string{sim.StatusRecoverableFailure, sim.StatusReadyToQuery, sim.StatusProcessing, sim.StatusProcessing}[i%4]
			if err := h.sim.Sim.SetFileStatus(f.FileID, status); err != nil {
				t.Fatal(err)
			}
		}
		// 45 minutes after the upload as the journal dates it (the
		// service's time, or the request's by the machine's clock)
		h.sim.Sim.Advance(files[0].UploadedAt.Add(45 * time.Minute).Sub(h.sim.Sim.Now()))
		// a look first: the journal records the ready file, so neither
		// face lists it. (The look that first sees a file ready lists it,
		// and records it: the next look, console or command, does not.)
		if look := h.cli("status", "--journal", "--csv"); !strings.Contains(look, "\nb.pdf,ready_to_query,") {
			t.Fatalf("the first look lists no ready b.pdf:\n%s", look)
		}
	}
	jfs := func() page.Page {
		upload()
		return loaded(t, filestatusview.New(env, "", filestatusview.Options{Tick: once}))
	}
	return []exportCase{
		{"file status from the journal", jfs},
		{"file status from the journal filtered", func() page.Page { return keys(jfs(), "3") }},
		{"file status from the journal sorted", func() page.Page { return keys(jfs(), "o") }},
	}, env
}

// fromFilesTab opens File status as the project's files tab does (enter
// on its files: each ID with the upload time of the listing), the
// first poll only.
func (h *equiv) fromFilesTab(prj page.Page, tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd) page.Page {
	h.t.Helper()
	_, msgs := pagetest.Press(keys(prj, "tab"), "enter")
	for _, m := range msgs {
		if o, ok := m.(page.Open); ok && o.Route == "files" {
			return loaded(h.t, filestatusview.New(h.env, o.Arg, filestatusview.Options{Tick: tick}))
		}
	}
	h.t.Fatalf("enter on the files tab opened no File status: %v", msgs)
	return nil
}

// uploadCases are the upload page once its upload is done (`:upload`, u in
// a project): three files, one of a name the project holds already
// (skipped, the duplicate mode's default); its command `uploads RUN`.
func (h *equiv) uploadCases(t *testing.T, st *store.Store, pid string) []exportCase {
	uploadOf := func(names ...string) page.Page {
		held := h.headless(page.Query{Command: []string{"files", pid}}, "name")[0]
		dir := filepath.Join(t.TempDir(), "new")
		for _, f := range append(names, held) {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
			os.WriteFile(filepath.Join(dir, f), []byte("content of "+f), 0o644)
		}
		env := pagetest.WithJobs(h.env, page.Jobs{Upload: h.sim.Client, Files: h.sim.Client})
		env.Journal, env.Conn = st, &account.Conn{Profile: equivProfile, DataProfile: equivProfile}
		p := loaded(t, uploadview.New(env, pid+" Inbox"))
		p, _ = pagetest.Type(p, dir)
		p = keys(p, "enter", "enter") // the plan, then the typed count
		p, _ = pagetest.Type(p, "3")
		p, cmd := p.Update(pagetest.Key("enter"))
		p, done := pagetest.RunTasks(p, pagetest.Started(cmd))
		if len(done) != 1 || done[0].Err != nil {
			t.Fatalf("the upload: %+v", done)
		}
		return p
	}
	done := func() page.Page { return uploadOf("brief.pdf", "exhibits/exhibit 1.pdf") }
	// undone: its two new files processed, then X and the typed count: the
	// rows say deleted, by which job and when (upload.RunResult)
	undone := func() page.Page {
		p := uploadOf("undo/memo.pdf", "undo/note.pdf")
		for _, f := range h.sim.Sim.LiveFiles(pid) {
			if f.Name == "memo.pdf" || f.Name == "note.pdf" {
				h.sim.Sim.SetFileStatus(f.ID, "READY_TO_QUERY")
			}
		}
		p = keys(p, "X")
		p, _ = pagetest.Type(p, "2")
		p, cmd := p.Update(pagetest.Key("enter"))
		p, undo := pagetest.RunTasks(p, pagetest.Started(cmd))
		if len(undo) != 1 || undo[0].Err != nil {
			t.Fatalf("the undo: %+v", undo)
		}
		return p
	}
	// each its own upload: the second's files are all skipped, held already
	return []exportCase{{"upload page, done", done}, {"upload page, done, sorted", func() page.Page { return keys(done(), "o") }},
		{"upload page, undone", undone}}
}
