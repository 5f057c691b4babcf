package filestatusview

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestFilesAcrossProjects: `:files` without IDs shows every unfinished file
// of the journal, whatever the project: the path that was uploaded (two
// x.pdf in different folders are told apart), the project (named when the
// cached listing knows it), files the service never confirmed (unproven,
// not sent) with their own status, counted in the summary; and R
// re-uploads stuck files of two projects in one go.
func TestFilesAcrossProjects(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, StuckShare: 1}})
	s, client := e.Sim, e.Client
	alpha, _ := s.AddProject(sim.ProjectSpec{Name: "Alpha"})
	beta, _ := s.AddProject(sim.ProjectSpec{Name: "Beta"})
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run := &upload.Runner{API: client, Store: st, Profile: "p"}
	for pid, rel := range map[string]string{alpha: "one/a/b/x.pdf", beta: "two/c/x.pdf"} {
		dir := t.TempDir()
		local := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(local), 0o755)
		os.WriteFile(local, []byte("doc "+rel), 0o644)
		top := filepath.Join(dir, strings.Split(rel, "/")[0])
		if out, err := run.Upload(context.Background(), pid, upload.Walk([]string{top}), api.DuplicateSkip); err != nil || len(out.Uploaded) != 1 {
			t.Fatalf("upload %s: %v %+v", rel, err, out)
		}
	}
	// an unproven file (alpha) and a file never sent (beta)
	lease := store.Lease{Owner: "earlier", Until: time.Now().Add(time.Hour)}
	_, bs, _ := st.RecordRun(store.UploadRun{Profile: "p", ProjectID: alpha, Mode: "keep"}, nil,
		[][]store.JournalFile{{{Local: "/gone/a/z.pdf", Path: "a/z.pdf", Name: "z.pdf", Size: 1}}}, lease)
	st.StartBatch(bs[0].ID, "earlier", time.Now(), bs[0].Files)
	st.CompleteBatch(bs[0].ID, "earlier", []store.FileOutcome{{ID: bs[0].Files[0].ID, State: store.FileUnproven, Reason: "lost"}}, "")
	st.RecordRun(store.UploadRun{Profile: "p", ProjectID: beta, Mode: "skip"}, nil,
		[][]store.JournalFile{{{Local: "/later/q.pdf", Path: "later/q.pdf", Name: "q.pdf", Size: 1}}}, lease)

	cache := &pagetest.MapCache{At: time.Now()}
	body, _ := json.Marshal(map[string]any{"projects": []map[string]string{{"id": alpha, "name": "Alpha"}}})
	cache.Put(person.CacheProjects, body)
	r := newRigFull(t, client, newFake(), "", Options{}, func(e *page.Env) {
		e.Journal, e.Conn, e.Cache = st, &account.Conn{DataProfile: "p"}, cache
		e.Jobs, e.Keys = &page.Jobs{Upload: client}, keys.NewSession(keys.Session{Jobs: true}) // handed the upload job, as the console does
	})
	r.m.SetSize(80, 24)
	r.now = time.Now().Add(2 * time.Hour) // two hours after the uploads: stuck
	r.run(r.m.Init())
	v := r.m.View()
	for _, c := range []struct{ path, want string }{
		{"a/b/x.pdf", "Alpha"}, {"c/x.pdf", beta[:11]}, {"a/z.pdf", "unproven"}, {"later/q.pdf", "not sent"},
	} {
		if l := lineWith(v, c.path); !strings.Contains(l, c.want) {
			t.Errorf("%s: %q, want %q in it:\n%s", c.path, l, c.want, v)
		}
	}
	if l := lineWith(v, "a/z.pdf"); !strings.Contains(l, "Alpha") {
		t.Errorf("unproven row without its project: %q", l)
	}
	for _, want := range []string{"4 files", "stuck 3", "missing 1", "1 not sent", "1 unproven", "Project"} {
		if !strings.Contains(v, want) {
			t.Errorf("summary lacks %q:\n%s", want, v)
		}
	}
	moveTo := func(path string) {
		t.Helper()
		r.key(tea.KeyMsg{Type: tea.KeyHome})
		for range r.m.Table.Len() {
			if row, ok := r.m.Table.Selected(); ok && row.Cells[colName] == path {
				return
			}
			r.key(tea.KeyMsg{Type: tea.KeyDown})
		}
		t.Fatalf("no row %s", path)
	}
	// R on a file the service never confirmed says what to do instead
	moveTo("later/q.pdf")
	r.stat = nil
	r.key(runes("R"))
	if len(r.stat) != 1 || !strings.Contains(r.stat[0].Text, "upload --resume") || r.m.confirm != nil {
		t.Errorf("R on a file never sent: %+v", r.stat)
	}
	// mark the two stuck uploads (one per project) and re-upload them
	for _, path := range []string{"a/b/x.pdf", "c/x.pdf"} {
		moveTo(path)
		r.key(runes("x"))
	}
	r.key(runes("R"))
	if v := r.m.View(); !strings.Contains(v, "Re-upload 2 stuck or failed files") {
		t.Fatalf("confirmation:\n%s", v)
	}
	projects := map[string]bool{}
	for _, f := range r.m.reupload {
		projects[f.ProjectID] = true
	}
	if len(projects) != 2 {
		t.Errorf("re-upload rows of %d projects, want 2: %+v", len(projects), r.m.reupload)
	}
	r.key(runes("2"))
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if len(r.tasks) != 1 {
		t.Fatalf("tasks %+v", r.tasks)
	}
	outcome, err := r.tasks[0].Run(context.Background(), func(string) {})
	if err != nil || !strings.HasPrefix(outcome.Text, "re-upload: 2 uploaded") {
		t.Fatalf("task: %v %q", err, outcome.Text)
	}
	_, cmd := r.m.Update(outcome.Broadcast.(Reuploaded))
	r.run(cmd)
	if l := lineWith(r.m.View(), "c/x.pdf"); !strings.Contains(l, beta[:11]) {
		t.Errorf("the new version lost its path or project: %q", l)
	}
}
