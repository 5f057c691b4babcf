package upload

// The database's files changed under a running upload (issue 40, case 4):
// a cleaning script removes vaultdeck.db-wal and -shm after the first batch,
// or a restore puts a copy of the file in its place. The upload runs in a
// process of its own that ends without closing the store, as the command
// line does, since a clean close would fold the removed log into the file
// and hide what a killed or exiting process loses.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/store"
)

const movedEnv = "VAULTDECK_UPLOAD_MOVED_HELPER"

// afterFirstBatch runs change once the first batch's answer came back.
type afterFirstBatch struct {
	Backend
	change func()
	done   atomic.Bool
}

func (a *afterFirstBatch) UploadBatch(ctx context.Context, projectID string, files []api.UploadFile, mode api.DuplicateMode, sent func(int64)) (*api.UploadResult, error) {
	res, err := a.Backend.UploadBatch(ctx, projectID, files, mode, sent)
	if a.done.CompareAndSwap(false, true) {
		a.change()
	}
	return res, err
}

// movedChanges are the changes the child makes to the database's files.
func movedChanges(db string) map[string]func() {
	return map[string]func(){
		"wal and shm removed": func() { os.Remove(db + "-wal"); os.Remove(db + "-shm") },
		"shm removed":         func() { os.Remove(db + "-shm") },
	}
}

// TestUploadMovedHelper is the uploading process; it does nothing in a
// normal test run. It prints the outcome's errors and counts, then exits
// without closing the store.
func TestUploadMovedHelper(t *testing.T) {
	change := os.Getenv(movedEnv)
	if change == "" {
		t.Skip("helper process of TestUploadStopsWhenTheDatabaseFilesChange")
	}
	db := os.Getenv("MOVED_DB")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.New(api.Config{BaseURL: os.Getenv("MOVED_BASE"), Token: api.StaticToken(os.Getenv("MOVED_TOKEN")), Limits: simtest.Unlimited()})
	if err != nil {
		t.Fatal(err)
	}
	job := &Runner{API: &afterFirstBatch{Backend: c, change: movedChanges(db)[change]}, Store: st, Profile: "default", maxBatchFiles: 2}
	out, err := job.Upload(context.Background(), os.Getenv("MOVED_PROJECT"), Walk([]string{os.Getenv("MOVED_DIR")}), api.DuplicateKeep)
	fmt.Printf("uploaded=%d unfinished=%d err=%v\n", len(out.Uploaded), out.Unfinished, err)
	for _, e := range out.Errors {
		fmt.Println("error:", e)
	}
	os.Exit(0)
}

// TestUploadStopsWhenTheDatabaseFilesChange: the run stops before its next
// batch, naming what changed, and what it recorded outlives the process:
// a resume by a new process finishes the run, every file exactly once.
func TestUploadStopsWhenTheDatabaseFilesChange(t *testing.T) {
	for _, change := range []string{"wal and shm removed", "shm removed"} {
		t.Run(change, func(t *testing.T) {
			r := newRig(t)
			plan := r.files(6, 100)
			db := filepath.Join(t.TempDir(), store.FileName)
			cmd := exec.Command(os.Args[0], "-test.run=^TestUploadMovedHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), movedEnv+"="+change, "MOVED_DB="+db, "MOVED_BASE="+r.client.Base(),
				"MOVED_TOKEN="+r.sim.Token("admin"), "MOVED_PROJECT="+r.project, "MOVED_DIR="+filepath.Join(r.dir, "docs"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the uploading process: %v\n%s", err, out)
			}
			said := string(out)
			if !strings.Contains(said, "uploaded=2 unfinished=2") || !strings.Contains(said, "changed under this process") {
				t.Errorf("the upload went on after its files changed, or did not say so:\n%s", said)
			}
			if n := len(r.listed()); n != 2 {
				t.Errorf("%d files on the service after the stop, want the first batch's 2", n)
			}
			st, err := store.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			runs, err := st.UploadRuns("default")
			if err != nil || len(runs) != 1 {
				t.Fatalf("the journal holds %d runs (%v) after the process ended, want the one it stopped", len(runs), err)
			}
			res, err := (&Runner{API: r.client, Store: st, Profile: "default", maxBatchFiles: 2}).Resume(context.Background())
			if err != nil || res.Partial() {
				t.Fatalf("resume: %v %v", err, res.Errors)
			}
			if len(res.Uploaded) != 4 {
				t.Errorf("the resume uploaded %d files, want the 4 not sent", len(res.Uploaded))
			}
			for _, name := range []string{"doc-000.pdf", "doc-005.pdf"} {
				if n := len(r.listed()[name]); n != 1 {
					t.Errorf("%s is on the service %d times", name, n)
				}
			}
			if n := len(r.listed()); n != len(plan.Files) {
				t.Errorf("%d files on the service, want %d", n, len(plan.Files))
			}
		})
	}
}
