package projectview

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// files is a delete_file service: each file deleted once, then gone.
type files struct {
	mu      sync.Mutex
	deleted []string
}

func (f *files) DeleteFile(_ context.Context, id string) (*api.DeleteFileResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, d := range f.deleted {
		if d == id {
			return &api.DeleteFileResult{Outcome: api.FileGone}, nil
		}
	}
	f.deleted = append(f.deleted, id)
	return &api.DeleteFileResult{Outcome: api.FileDeleted}, nil
}

func (f *files) GetFiles(context.Context, []string) ([]api.Item[api.FileDetail], error) {
	return nil, nil
}

// TestDeleteMarkedFilesFromTheFilesTab: X on the Files tab asks for the
// number of the marked files, and the task deletes exactly those, each
// recorded in the write-job journal; a wrong number deletes nothing; a
// read-only session's X is off.
func TestDeleteMarkedFilesFromTheFilesTab(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := &files{}
	f := fake()
	env := pagetest.WithJobs(pagetest.Env(t, f, false), page.Jobs{Files: svc})
	env.Journal = st
	p := FromRecord(env, api.Project{ID: "p1", Name: "Acme Merger", FilesCount: 2})
	p.SetSize(120, 30)
	p, _ = pagetest.Drive(p, p.Init())
	p, _ = pagetest.Press(p, "tab")
	p, _ = pagetest.Press(p, "x") // mark f1
	p, _ = pagetest.Press(p, "X")
	if v := p.View(); !strings.Contains(v, "Delete 1 file from Acme Merger") {
		t.Fatalf("the confirmation:\n%s", v)
	}
	p, _ = pagetest.Type(p, "2")
	p, out := pagetest.Press(p, "enter")
	if len(svc.deleted) != 0 {
		t.Fatal("a wrong count deleted")
	}
	for _, m := range out {
		if _, ok := m.(page.StartTask); ok {
			t.Fatal("a wrong count started the deletion")
		}
	}
	p, _ = pagetest.Press(p, "esc")
	p, _ = pagetest.Press(p, "X")
	p, _ = pagetest.Type(p, "1")
	p, out = pagetest.Press(p, "enter")
	_, done := pagetest.RunTasks(p, out)
	if len(done) != 1 || done[0].Err != nil || len(svc.deleted) != 1 || svc.deleted[0] != "f1" || !strings.Contains(done[0].Outcome.Text, "1 deleted") {
		t.Fatalf("%+v deleted %v", done, svc.deleted)
	}
	jobs, _ := st.WriteJobs(deletefile.Name)
	if len(jobs) != 1 || jobs[0].Counts[store.ItemDone] != 1 {
		t.Fatalf("the journal: %+v", jobs)
	}
	// read-only: off, and said
	ro := FromRecord(pagetest.Env(t, f, true), api.Project{ID: "p1", Name: "Acme Merger"})
	if ro.(*Model).env.Keys.DeleteFiles.Enabled() {
		t.Fatal("X is on in a read-only session")
	}
	if why, ok := ro.(*Model).env.Keys.Off("X"); !ok || !strings.Contains(why, "read-only") {
		t.Fatalf("X in a read-only session: %q %v", why, ok)
	}
}
