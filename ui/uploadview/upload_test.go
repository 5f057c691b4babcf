package uploadview_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/projectview"
	"github.com/vaultdeck/vaultdeck/ui/uploadview"
)

func waitFor(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, text := range texts {
			if !bytes.Contains(b, []byte(text)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

type rig struct {
	sim       *sim.Server
	store     *store.Store
	storePath string
	project   string
	dir       string
	app       *app.Model
	env       page.Env
}

func newRig(t *testing.T, readOnly bool) *rig { t.Helper(); return newRigWith(t, readOnly, nil) }

// newRigWith hands the session chores (the demo's: audit sync, access
// crawl run in the console), built on the rig's client and store.
func newRigWith(t *testing.T, readOnly bool, chores func(c page.Backend, st *store.Store) *page.Chores) *rig {
	t.Helper()
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s, client := e.Sim, e.Client
	storePath := filepath.Join(t.TempDir(), store.FileName)
	st, err := store.Open(storePath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	dir := t.TempDir()
	for _, f := range []string{"exports/a.pdf", "exports/sub/b.docx", "exports/.DS_Store"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte("content "+f), 0o644)
	}
	env := pagetest.WithJobs(pagetest.Env(t, client, readOnly), page.Jobs{Upload: client, Files: client})
	env.Journal, env.Conn = st, &account.Conn{Profile: "p", DataProfile: "p", Where: "sim", Workspace: "W"}
	env.Now = nil
	if chores != nil {
		env.Chores = chores(client, st)
	}
	m := app.New(env, app.Config{Start: "upload", StartArg: pid + " Inbox",
		Routes: []app.Route{{Name: "project", New: projectview.New, FromRecord: projectview.Record}, {Name: "upload", New: uploadview.New}}})
	return &rig{sim: s, store: st, storePath: storePath, project: pid, dir: dir, app: m, env: env}
}

// The whole dialog as a person uses it: type a path prefix, Tab completes
// the folder, ctrl+t picks the duplicate mode, enter shows the count and
// size, enter asks to type the count, typing it uploads; the progress
// page ends with the outcome, and the run is in the journal.
func TestUploadDialogAndProgress(t *testing.T) {
	r := newRig(t, false)
	tm := teatest.NewTestModel(t, r.app, teatest.WithInitialTermSize(100, 24))
	waitFor(t, tm, "Upload to \"Inbox\"", "duplicate mode: skip")
	tm.Type(filepath.Join(r.dir, "exp"))
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	waitFor(t, tm, "exports/")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlT})
	waitFor(t, tm, "duplicate mode: replace")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "2 files, 47 B", "duplicate mode replace", "1 skipped")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Type 2 to confirm")
	tm.Type("2")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "upload: 2 uploaded", "files  2 of 2", "bytes  47 B of 47 B", "ETA", "audit:")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	runs, err := r.store.UploadRuns("p")
	if err != nil || len(runs) != 1 || runs[0].Mode != "replace" || runs[0].Uploaded != 2 || !runs[0].Finished() {
		t.Fatalf("journal: %+v %v", runs, err)
	}
	files, _ := r.store.RunFiles(runs[0].ID)
	for _, f := range files {
		sf, ok := r.sim.File(f.FileID)
		if !ok || sf.ProjectID != r.project {
			t.Errorf("%s not in the project", f.Name)
		}
	}
}

// In a read-only session the key map has no upload: :upload opens a page
// that says so and sends nothing.
func TestUploadRefusedReadOnly(t *testing.T) {
	r := newRig(t, true)
	tm := teatest.NewTestModel(t, r.app, teatest.WithInitialTermSize(100, 24))
	waitFor(t, tm, "read-only: uploads are disabled")
	tm.Type(filepath.Join(r.dir, "exports"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if runs, _ := r.store.UploadRuns("p"); len(runs) != 0 {
		t.Errorf("read-only session uploaded: %+v", runs)
	}
	_ = context.Background
	_ = strings.Contains
}

// Ctrl-C while a request is on the wire does not drop its response: the
// console says it waits, ends once the response is journaled, and the
// requests not started stay in the journal for upload --resume.
func TestCtrlCWaitsForTheCurrentRequest(t *testing.T) {
	arrived, release := make(chan struct{}, 10), make(chan struct{})
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.Contains(r.URL.Path, "upload_files") {
					arrived <- struct{}{}
					<-release
				}
				next.ServeHTTP(w, r)
			})
		}})
	s, client := e.Sim, e.Client
	released := false
	t.Cleanup(func() { // registered after Start's, so it runs before the server's Close, which waits for a blocked handler
		if !released {
			close(release)
		}
	})
	st, _ := store.Open(filepath.Join(t.TempDir(), store.FileName))
	t.Cleanup(func() { st.Close() })
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	dir := t.TempDir()
	for i := range 60 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("d%02d.pdf", i)), []byte("x"), 0o644)
	}
	env := pagetest.WithJobs(pagetest.Env(t, client, false), page.Jobs{Upload: client})
	env.Journal, env.Conn, env.Now = st, &account.Conn{Profile: "p", DataProfile: "p", Where: "sim", Workspace: "W"}, nil
	m := app.New(env, app.Config{Start: "upload", StartArg: pid,
		Routes: []app.Route{{Name: "upload", New: uploadview.New}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 24))
	waitFor(t, tm, "duplicate mode: skip")
	tm.Type(dir)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "60 files")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Type 60 to confirm")
	tm.Type("60")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	<-arrived
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	waitFor(t, tm, "quitting once the running task's current request is answered")
	close(release)
	released = true
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	runs, _ := st.UploadRuns("p")
	if len(runs) != 1 || runs[0].Uploaded != 50 || runs[0].Pending != 10 || runs[0].Finished() {
		t.Fatalf("journal after ctrl-c: %+v", runs)
	}
	if len(arrived) != 0 {
		t.Error("a second request was sent after ctrl-c")
	}
}

// A path pasted (or typed fast over SSH) arrives as one key message with
// many runes: it lands whole in the path input, and the rest of the
// dialog works as when typed slowly.
func TestUploadPathAsOneBurst(t *testing.T) {
	r := newRig(t, false)
	tm := teatest.NewTestModel(t, r.app, teatest.WithInitialTermSize(100, 24))
	waitFor(t, tm, "duplicate mode: skip")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(filepath.Join(r.dir, "exports", "sub"))})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "1 file, 26 B")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Type 1 to confirm")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("1")})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "upload: 1 uploaded")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// Enter on the summary does not upload: like every other action that
// changes the server (mode replace makes new versions), it asks to type
// the file count. A wrong count or esc sends nothing; esc goes back to
// the summary; the right count starts the upload.
func TestUploadAsksToTypeTheCount(t *testing.T) {
	r := newRig(t, false)
	tm := teatest.NewTestModel(t, r.app, teatest.WithInitialTermSize(100, 24))
	waitFor(t, tm, "duplicate mode: skip")
	tm.Type(filepath.Join(r.dir, "exports"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "2 files, 47 B")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Type 2 to confirm")
	tm.Type("3")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "does not match")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "enter asks for the file count")
	if runs, _ := r.store.UploadRuns("p"); len(runs) != 0 {
		t.Fatalf("uploaded without the typed count: %+v", runs)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Type 2 to confirm")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "upload: 2 uploaded")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if runs, _ := r.store.UploadRuns("p"); len(runs) != 1 || runs[0].Uploaded != 2 {
		t.Fatalf("journal: %+v", runs)
	}
}
