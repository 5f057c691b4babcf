package deletefile_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/api/writejob/writejobtest"
	"github.com/vaultdeck/vaultdeck/store"
)

// world is the simulator: a project with two ready files, one still
// processing for a minute (409, then deleted on a retry), one already
// gone (404), and a colleague's file that no plan names.
type world struct {
	s         *sim.Server
	c         *api.Client
	pid       string
	plan      []deletefile.File
	colleague string
}

// sleeping is the kind over the simulator whose waits move its clock.
type sleeping struct {
	*deletefile.Kind
	s *sim.Server
}

func (k sleeping) Sleep(ctx context.Context, d time.Duration) error {
	k.s.Advance(d)
	return ctx.Err()
}

func newWorld(t *testing.T) *world {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: sim.DefaultSeed, NoRateLimit: true, Control: true,
		Now: func() time.Time { return time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC) }}})
	return &world{s: e.Sim, c: e.Client}
}

func (w *world) Fresh(t *testing.T) (writejob.Kind, *writejob.Plan) {
	t.Helper()
	w.s.Reset()
	pid, err := w.s.AddProject(sim.ProjectSpec{Name: "Misfiled"})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := w.s.AddFiles(pid, []sim.FileSpec{{Name: "a.pdf", Size: 10}, {Name: "b.pdf", Size: 20},
		{Name: "c.pdf", Status: "PROCESSING", ReadyInSeconds: 30, Size: 30}, {Name: "gone.pdf", Size: 5}, {Name: "colleague.pdf", Size: 7}})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := w.c.DeleteFile(context.Background(), ids[3]); err != nil || r.Outcome != api.FileDeleted {
		t.Fatalf("%+v %v", r, err)
	}
	w.pid, w.colleague = pid, ids[4]
	w.plan = []deletefile.File{{ID: ids[0], Name: "a.pdf", ProjectID: pid}, {ID: ids[1], Name: "b.pdf", ProjectID: pid},
		{ID: ids[2], Name: "c.pdf", ProjectID: pid}, {ID: ids[3], Name: "gone.pdf", ProjectID: pid}}
	p, err := writejob.NewPlan(store.WriteJob{Kind: deletefile.Name, Profile: "walk", BaseURL: "http://sim", Plan: "delete 4 files"},
		deletefile.Items(w.plan))
	if err != nil {
		t.Fatal(err)
	}
	return sleeping{deletefile.New(w.c), w.s}, p
}

func (w *world) Applied() []string {
	var out []string
	for _, f := range w.plan {
		if fi, ok := w.s.File(f.ID); ok && !fi.Deleted {
			out = append(out, f.Name+" is still there")
		}
	}
	if fi, ok := w.s.File(w.colleague); !ok || fi.Deleted {
		out = append(out, "the colleague's file was deleted")
	}
	if p := projectFiles(w.s, w.pid); p != 1 {
		out = append(out, fmt.Sprintf("the project holds %d files, want 1", p))
	}
	return out
}

func projectFiles(s *sim.Server, pid string) int {
	for _, p := range s.Projects() {
		if p.ID == pid {
			return p.FileCount
		}
	}
	return -1
}

// Receipt: the file gone before is "gone", every other "deleted", once.
func (w *world) Receipt(items []writejob.Item) []string {
	var out []string
	for i, it := range items {
		want := deletefile.Deleted
		if w.plan[i].Name == "gone.pdf" {
			want = deletefile.Gone
		}
		inDoubt := it.Outcome == deletefile.Gone && strings.HasPrefix(it.Detail, deletefile.InDoubt)
		if (it.Outcome != want && !(want == deletefile.Deleted && inDoubt)) || it.Target != w.plan[i].ID {
			out = append(out, fmt.Sprintf("%s: outcome %q (%s), want %q", w.plan[i].Name, it.Outcome, it.Detail, want))
		}
	}
	return out
}

func (w *world) Reverted() []string { return nil }
func (w *world) Undoable() bool     { return false }

// TestFaultWalkOfFileDeletions walks every write point of a delete_file
// job against the simulator (a 409 retried, a 404 taken as gone, lost
// answers checked through get_files), as the core's walk does.
func TestFaultWalkOfFileDeletions(t *testing.T) {
	n := writejobtest.Walk(t, newWorld(t), writejobtest.Config{Schedules: os.Getenv("VAULTDECK_FAULT_SCHEDULES"), Only: os.Getenv("VAULTDECK_FAULT_ONLY")})
	t.Logf("%d schedules walked", n)
}
