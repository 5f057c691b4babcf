package uploadview_test

import (
	"encoding/csv"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/uploadview"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// uploadExports uploads the rig's exports folder (two files) from the
// upload page at 120x30, as typed: the path, enter, enter, its count.
func uploadExports(r *rig) (page.Page, []page.TaskDone) {
	p := uploadview.New(r.env, r.project+" Inbox")
	p.SetSize(120, 30)
	p, _ = pagetest.Drive(p, p.Init())
	p, _ = pagetest.Type(p, filepath.Join(r.dir, "exports"))
	p, _ = pagetest.Press(p, "enter")
	p, _ = pagetest.Press(p, "enter")
	p, _ = pagetest.Type(p, "2")
	p, cmd := p.Update(pagetest.Key("enter"))
	return pagetest.RunTasks(p, pagetest.Started(cmd))
}

// TestThePageSaysWhatItsUndoDeleted: after X, the page's table (and its
// e) reads each file the undo deleted as deleted, by which job and when,
// not uploaded; the job keeps the plan `uploads undo` keeps (its left and
// gone lines are what the listing reads back).
func TestThePageSaysWhatItsUndoDeleted(t *testing.T) {
	r := newRig(t, false)
	p, done := uploadExports(r)
	if len(done) != 1 || done[0].Err != nil {
		t.Fatalf("the upload: %+v", done)
	}
	for _, f := range r.sim.LiveFiles(r.project) {
		r.sim.SetFileStatus(f.ID, "READY_TO_QUERY")
	}
	p, _ = pagetest.Press(p, "X")
	p, _ = pagetest.Type(p, "2")
	p, cmd := p.Update(pagetest.Key("enter"))
	p, done = pagetest.RunTasks(p, pagetest.Started(cmd))
	if len(done) != 1 || done[0].Err != nil {
		t.Fatalf("the undo: %+v", done)
	}
	var b strings.Builder
	if err := p.(interface{ ExportTable() widgets.TableExport }).ExportTable().WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil || len(recs) != 3 {
		t.Fatalf("e: %v %q", err, b.String())
	}
	for _, rec := range recs[1:] {
		if rec[1] != "deleted" || !strings.HasPrefix(rec[2], "deleted by undo job 1 at ") || rec[6] != "1" || rec[7] == "" {
			t.Errorf("e after the undo: %q", rec)
		}
	}
	// the table's rows: each file's path, then its result
	v := p.View()
	for _, path := range []string{"a.pdf", "sub/b.docx"} {
		row := ""
		for _, line := range strings.Split(v, "\n") {
			if strings.Contains(line, path+" ") {
				row = line
			}
		}
		if f := strings.Fields(row); len(f) < 2 || f[1] != "deleted" {
			t.Errorf("the page's row of %s after the undo: %q\n%s", path, row, v)
		}
	}
	// nothing of the run is left: X offers no second undo
	if _, out := pagetest.Press(p, "X"); len(out) == 0 || !strings.Contains(fmt.Sprint(out), "nothing to undo here") {
		t.Errorf("X after the undo deleted every file: %v", out)
	}
	jobs, err := r.store.WriteJobs(deletefile.Name)
	if err != nil || len(jobs) != 1 || !strings.HasPrefix(jobs[0].Plan, upload.UndoTag(1)) || !strings.Contains(jobs[0].Plan, "delete    2 files, one request each\n") {
		t.Errorf("the undo's job: %v %+v", err, jobs)
	}
}

// TestXResumesAStoppedUndo: an undo of the run stopped part-way (a
// deletion in flight at a kill, one not sent) is resumed by X, as
// `uploads undo RUN` resumes it, not planned again as a second job beside
// it; then the page reads both files deleted by that one job.
func TestXResumesAStoppedUndo(t *testing.T) {
	r := newRig(t, false)
	p, done := uploadExports(r)
	if len(done) != 1 || done[0].Err != nil {
		t.Fatalf("the upload: %+v\n%s", done, p.View())
	}
	for _, f := range r.sim.LiveFiles(r.project) {
		r.sim.SetFileStatus(f.ID, "READY_TO_QUERY")
	}
	// the state a kill -9 of `uploads undo 1` leaves after its first request left
	files, err := r.store.RunFiles(1)
	if err != nil || len(files) != 2 {
		t.Fatal(err, files)
	}
	var items []store.WriteJobItem
	for i, f := range files {
		items = append(items, store.WriteJobItem{Seq: i + 1, Send: i + 1, Target: f.FileID, Label: f.Name, Action: "delete", State: store.ItemPlanned})
	}
	id, err := r.store.StartWriteJob(store.WriteJob{Kind: deletefile.Name, Profile: "p", BaseURL: "http://x.test",
		Plan: upload.UndoTag(1) + "delete    2 files, one request each\n"}, items)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.store.SendingWriteJobItems(id, []int{1}); err != nil {
		t.Fatal(err)
	}
	p, _ = pagetest.Press(p, "X")
	p, _ = pagetest.Type(p, "2")
	p, cmd := p.Update(pagetest.Key("enter"))
	p, done = pagetest.RunTasks(p, pagetest.Started(cmd))
	if len(done) != 1 || done[0].Err != nil {
		t.Fatalf("the undo: %+v", done)
	}
	if jobs, err := r.store.WriteJobs(deletefile.Name); err != nil || len(jobs) != 1 {
		t.Errorf("X planned another undo beside the stopped one: %v %d jobs", err, len(jobs))
	}
	if n := len(r.sim.LiveFiles(r.project)); n != 0 {
		t.Errorf("%d of the run's files left after X", n)
	}
	var b strings.Builder
	if err := p.(interface{ ExportTable() widgets.TableExport }).ExportTable().WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), ",deleted,deleted by undo job 1 at "); got != 2 {
		t.Errorf("e after the resume:\n%s", b.String())
	}
}

// TestXIsTypedIntoThePath: X undoes a finished upload; in the path field
// (and the table's / filter) it is a letter like any other. It opened the
// undo's refusal instead, and the path lost it.
func TestXIsTypedIntoThePath(t *testing.T) {
	r := newRig(t, false)
	p := uploadview.New(r.env, r.project+" Inbox")
	p.SetSize(120, 30)
	p, _ = pagetest.Drive(p, p.Init())
	p, out := pagetest.Type(p, "/tmp/Xrays")
	if v := p.View(); !strings.Contains(v, "/tmp/Xrays") || strings.Contains(fmt.Sprint(out), "nothing to undo") {
		t.Errorf("typed /tmp/Xrays: %v\n%s", out, v)
	}
}
