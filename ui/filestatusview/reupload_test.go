package filestatusview

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// R on stuck files uploaded by vaultdeck: a confirmation names the count,
// the task re-sends them with mode replace from the journaled paths, and
// the view then tracks the new IDs instead of the old.
func TestReuploadStuckFiles(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, StuckShare: 1}})
	s, client := e.Sim, e.Client
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "R"})
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dir := t.TempDir()
	for i := range 3 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.pdf", i)), []byte(fmt.Sprint("doc ", i)), 0o644)
	}
	run := &upload.Runner{API: client, Store: st, Profile: "p"}
	out, err := run.Upload(context.Background(), pid, upload.Walk([]string{dir}), api.DuplicateSkip)
	if err != nil || len(out.Uploaded) != 3 {
		t.Fatal(err)
	}

	r := newRigFull(t, client, newFake(), "", Options{}, func(e *page.Env) {
		e.Journal, e.Conn = st, &account.Conn{DataProfile: "p"}
		e.Jobs, e.Keys = &page.Jobs{Upload: client}, keys.NewSession(keys.Session{Jobs: true}) // handed the upload job, as the console does
	})
	r.now = time.Now().Add(2 * time.Hour) // two hours after the upload: stuck
	r.run(r.m.Init())
	if v := r.m.View(); !strings.Contains(v, "stuck 3") {
		t.Fatalf("not stuck:\n%s", v)
	}
	r.key(runes("x"))
	r.key(tea.KeyMsg{Type: tea.KeyDown})
	r.key(runes("x"))
	r.key(runes("R"))
	if v := r.m.View(); !strings.Contains(v, "Re-upload 2 stuck or failed files") || !strings.Contains(v, "Type 2 to confirm") {
		t.Fatalf("confirmation does not name the count:\n%s", v)
	}
	r.key(runes("2"))
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if len(r.tasks) != 1 || r.tasks[0].Name != "re-upload 2 files" {
		t.Fatalf("tasks %+v", r.tasks)
	}
	outcome, err := r.tasks[0].Run(context.Background(), func(string) {})
	if err != nil || !strings.HasPrefix(outcome.Text, "re-upload: 2 uploaded") {
		t.Fatalf("task: %v %q", err, outcome.Text)
	}
	rep := outcome.Broadcast.(Reuploaded)
	_, cmd := r.m.Update(rep)
	r.run(cmd)
	if len(r.m.tr.Files) != 3 {
		t.Errorf("tracking %d files, want 3", len(r.m.tr.Files))
	}
	for old, nw := range rep.Replaced {
		if _, ok := r.m.tr.Index(old); ok {
			t.Errorf("old %s still tracked", old)
		}
		if _, ok := r.m.tr.Index(nw); !ok {
			t.Errorf("new %s not tracked", nw)
		}
		if f, _ := s.File(nw); f.RootFileID != old {
			t.Errorf("new file %s root %q, want %s", nw, f.RootFileID, old)
		}
	}
}

// In a read-only session R is not bound: nothing is asked, nothing sent.
func TestReuploadNotInReadOnly(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRigEnv(t, fake, "a", Options{UploadedAt: map[string]time.Time{"a": t0.Add(-time.Hour)}}, func(e *page.Env) {
		e.ReadOnly, e.Keys = true, keys.New(true) // the one place read-only is decided
	})
	r.run(r.m.Init())
	r.key(runes("R"))
	if r.m.confirm != nil || len(r.tasks) != 0 {
		t.Error("R acted in a read-only session")
	}
}
