package deletefile_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestADeletionSaysItWaitsForTheBudget: twelve deletions pass the vault
// budget of ten requests a minute, so a request waits before it goes; the
// job's progress says so (the console's task line: the Files tab and the
// upload page's undo), where it said only "10 of 12 files settled" for a
// minute.
func TestADeletionSaysItWaitsForTheBudget(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1}, DefaultLimits: true, SimClock: true})
	pid, _ := e.Sim.AddProject(sim.ProjectSpec{Name: "Misfiled"})
	specs := make([]sim.FileSpec, 12)
	for i := range specs {
		specs[i] = sim.FileSpec{Name: fmt.Sprintf("f%02d.pdf", i), Size: 10}
	}
	ids, err := e.Sim.AddFiles(pid, specs)
	if err != nil {
		t.Fatal(err)
	}
	var files []deletefile.File
	for i, id := range ids {
		files = append(files, deletefile.File{ID: id, Name: specs[i].Name, ProjectID: pid})
	}
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var lines []string
	var waits int
	rep, err := deletefile.Delete(context.Background(), st, e.Client, store.WriteJob{Profile: "p", BaseURL: "http://sim", Plan: "delete 12"}, files, 0,
		func(p writejob.Progress) {
			if p.Budget != nil && p.Budget.Reason == api.WaitBudget {
				waits++
			}
			lines = append(lines, deletefile.ProgressLine(p))
		})
	if err != nil || !rep.Settled() {
		t.Fatalf("%v %v", err, rep.Err)
	}
	said := false
	for _, l := range lines {
		if strings.Contains(l, "for the vault budget") && strings.Contains(l, "nothing of the next request was sent yet") {
			said = true
		}
	}
	if waits == 0 || !said {
		t.Fatalf("no progress said the budget wait: %q", lines)
	}
}
