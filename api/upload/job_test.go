package upload

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

func TestUploadJournalsEveryFile(t *testing.T) {
	r := newRig(t)
	plan := r.files(120, 100)
	out, err := r.runner("a").Upload(context.Background(), r.project, plan, api.DuplicateSkip)
	if err != nil || out.Partial() || len(out.Uploaded) != 120 {
		t.Fatalf("err %v, outcome %d uploaded, partial %v", err, len(out.Uploaded), out.Partial())
	}
	listed := r.listed()
	ids := r.journalIDs()
	if len(listed) != 120 || len(ids) != 120 {
		t.Fatalf("listed %d, journal %d", len(listed), len(ids))
	}
	for name, id := range ids {
		if len(listed[name]) != 1 || listed[name][0] != id {
			t.Errorf("%s: journal %s, listing %v", name, id, listed[name])
		}
	}
	runs, _ := r.store.UploadRuns("default")
	if len(runs) != 1 || !runs[0].Finished() || runs[0].Uploaded != 120 {
		t.Errorf("runs %+v", runs)
	}
	open, _ := r.store.UnfinishedBatches("default")
	if len(open) != 0 {
		t.Errorf("%d batches left open", len(open))
	}
}

func TestModesSkipReplaceKeep(t *testing.T) {
	r := newRig(t)
	plan := r.files(2, 10)
	if _, err := r.runner("a").Upload(context.Background(), r.project, plan, api.DuplicateSkip); err != nil {
		t.Fatal(err)
	}
	first := r.listed()["doc-000.pdf"][0]

	out, err := r.runner("a").Upload(context.Background(), r.project, plan, api.DuplicateSkip)
	if err != nil || len(out.Skipped) != 2 || len(out.Uploaded) != 0 {
		t.Fatalf("skip: %v, %d skipped %d uploaded", err, len(out.Skipped), len(out.Uploaded))
	}

	out, err = r.runner("a").Upload(context.Background(), r.project, plan, api.DuplicateReplace)
	if err != nil || len(out.Uploaded) != 2 {
		t.Fatalf("replace: %v %+v", err, out)
	}
	nf, _ := r.sim.File(out.Uploaded[0].FileID)
	if nf.Name != "doc-000.pdf" || nf.RootFileID != first || out.Uploaded[0].FileID == first {
		t.Errorf("replace: new file %+v, first %s", nf, first)
	}

	out, err = r.runner("a").Upload(context.Background(), r.project, plan, api.DuplicateKeep)
	if err != nil || len(out.Uploaded) != 2 {
		t.Fatalf("keep: %v %+v", err, out)
	}
	kf, _ := r.sim.File(out.Uploaded[1].FileID)
	if kf.Name != "doc-001 (1).pdf" {
		t.Errorf("keep: new name %q", kf.Name)
	}
	if got := sortedKeys(r.listed()); strings.Join(got, ",") != "doc-000 (1).pdf,doc-000.pdf,doc-001 (1).pdf,doc-001.pdf" {
		t.Errorf("listing %v", got)
	}
}

func TestRefusedByNameAndTheRestContinue(t *testing.T) {
	r := newRig(t)
	plan := r.files(4, 10)
	os.Remove(plan.Files[1].Local) // vanished after it was listed
	run := r.runner("a")
	run.openLocal = func(p string) (*os.File, error) {
		if strings.HasSuffix(p, "doc-002.pdf") {
			return nil, &os.PathError{Op: "open", Path: p, Err: os.ErrPermission}
		}
		return os.Open(p)
	}
	out, err := run.Upload(context.Background(), r.project, plan, api.DuplicateSkip)
	if err != nil {
		t.Fatal(err)
	}
	var refused []string
	for _, f := range out.Refused {
		refused = append(refused, f.Name+": "+f.Reason)
	}
	want := "doc-001.pdf: vanished since it was listed|doc-002.pdf: cannot be read: permission denied"
	if strings.Join(refused, "|") != want || len(out.Uploaded) != 2 || !out.Partial() {
		t.Errorf("refused %q, uploaded %d", refused, len(out.Uploaded))
	}
	if got := sortedKeys(r.listed()); strings.Join(got, ",") != "doc-000.pdf,doc-003.pdf" {
		t.Errorf("listing %v", got)
	}
	runs, _ := r.store.UploadRuns("default")
	if runs[0].Refused != 2 || runs[0].Uploaded != 2 || !runs[0].Finished() {
		t.Errorf("run %+v", runs[0])
	}
}

// TestCrashAtEveryStepThenResume simulates kill -9 at every step of the
// second batch (the first completed, the third not started), then resumes
// from another process: every file is in the project exactly once, under
// every mode, and the journal holds each one's ID.
func TestCrashAtEveryStepThenResume(t *testing.T) {
	steps := []string{StepQueued, StepRecorded, StepMidBody, StepResponded, StepCompleted}
	for _, mode := range []api.DuplicateMode{api.DuplicateKeep, api.DuplicateReplace, api.DuplicateSkip} {
		for _, step := range steps {
			t.Run(string(mode)+"/"+step, func(t *testing.T) {
				r := newRig(t)
				plan := r.files(120, 64<<10)
				crasher := r.runner("dead")
				var batches []int64
				crasher.crashAt = func(s string, b int64) bool {
					if s == StepRecorded {
						batches = append(batches, b)
					}
					return s == step && (step == StepQueued || len(batches) == 2)
				}
				if _, err := crasher.Upload(context.Background(), r.project, plan, mode); !errors.Is(err, ErrCrashed) {
					t.Fatalf("crash at %s: %v", step, err)
				}
				// What the service holds at the moment of the crash: batch 2
				// arrived only if its response did.
				want := map[string]int{StepQueued: 0, StepRecorded: 50, StepMidBody: 50, StepResponded: 100, StepCompleted: 100}[step]
				if n := len(r.listed()); n != want {
					t.Fatalf("after the crash the service holds %d files, want %d", n, want)
				}
				resumer := r.runner("alive")
				resumer.Steal = func(holder string) bool { return holder == "dead" }
				out, err := resumer.Resume(context.Background())
				if err != nil || out.Unfinished != 0 || len(out.Errors) > 0 {
					t.Fatalf("resume: %v, unfinished %d, errors %q", err, out.Unfinished, out.Errors)
				}
				listed := r.listed()
				if len(listed) != 120 {
					t.Errorf("%d names listed, want 120: %v", len(listed), sortedKeys(listed)[:min(5, len(listed))])
				}
				ids := r.journalIDs()
				for _, f := range plan.Files {
					if got := listed[f.Name]; len(got) != 1 || ids[f.Name] != got[0] {
						t.Errorf("%s: listed %v, journal %q", f.Name, got, ids[f.Name])
					}
				}
				if open, _ := r.store.UnfinishedBatches("default"); len(open) != 0 {
					t.Errorf("%d batches still open", len(open))
				}
				// A second resume finds nothing to do.
				again, err := resumer.Resume(context.Background())
				if err != nil || len(again.Uploaded) != 0 || len(again.RunIDs) != 0 {
					t.Errorf("second resume: %v, %d uploaded, runs %v", err, len(again.Uploaded), again.RunIDs)
				}
			})
		}
	}
}

func TestConcurrentResumeRefused(t *testing.T) {
	r := newRig(t)
	plan := r.files(3, 10)
	holder := r.runner("holder")
	holder.crashAt = func(s string, _ int64) bool { return s == StepRecorded }
	if _, err := holder.Upload(context.Background(), r.project, plan, api.DuplicateKeep); !errors.Is(err, ErrCrashed) {
		t.Fatal(err)
	}
	// The holder is alive (Steal says no) and its lease has not expired.
	other := r.runner("other")
	other.Steal = func(string) bool { return false }
	out, err := other.Resume(context.Background())
	if err != nil || out.Unfinished != 1 || len(out.Errors) != 1 || !strings.Contains(out.Errors[0], "another vaultdeck process") {
		t.Fatalf("resume while leased: %v %+v", err, out)
	}
	if n := len(r.listed()); n != 0 {
		t.Errorf("%d files sent by the refused resume", n)
	}
	// The store refuses the claim itself, whoever asks.
	open, _ := r.store.UnfinishedBatches("default")
	if err := r.store.ClaimBatch(open[0].ID, store.Lease{Owner: "third", Until: open[0].BeganAt.Add(1e12)}); !errors.Is(err, store.ErrLeased) {
		t.Errorf("claim of a leased batch: %v", err)
	}
}

func TestResumeRefusesAFileChangedSinceItWasJournaled(t *testing.T) {
	r := newRig(t)
	plan := r.files(2, 10)
	crasher := r.runner("dead")
	crasher.crashAt = func(s string, _ int64) bool { return s == StepRecorded }
	if _, err := crasher.Upload(context.Background(), r.project, plan, api.DuplicateSkip); !errors.Is(err, ErrCrashed) {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, "docs", "doc-001.pdf"), []byte("rewritten"), 0o644); err != nil {
		t.Fatal(err)
	}
	resumer := r.runner("alive")
	resumer.Steal = func(h string) bool { return h == "dead" }
	out, err := resumer.Resume(context.Background())
	if err != nil || len(out.Uploaded) != 1 || len(out.Refused) != 1 || !strings.Contains(out.Refused[0].Reason, "changed since") {
		t.Fatalf("%v %+v", err, out)
	}
}

var _ = Walk
var _ = fmt.Sprint

func TestReuploadReplacesFromJournaledPaths(t *testing.T) {
	r := newRig(t)
	plan := r.files(3, 10)
	out, err := r.runner("a").Upload(context.Background(), r.project, plan, api.DuplicateSkip)
	if err != nil || len(out.Uploaded) != 3 {
		t.Fatal(err)
	}
	old := out.Uploaded[:2]
	for i := range old {
		old[i].ProjectID = r.project
	}
	ro, replaced, err := r.runner("a").Reupload(context.Background(), old)
	if err != nil || len(ro.Uploaded) != 2 || len(replaced) != 2 {
		t.Fatalf("%v %d %v", err, len(ro.Uploaded), replaced)
	}
	for _, f := range old {
		nf, ok := r.sim.File(replaced[f.FileID])
		if !ok || nf.RootFileID != f.FileID || nf.Name != f.Name {
			t.Errorf("%s: new %+v", f.Name, nf)
		}
	}
	// The journal tracks the new IDs, not the old.
	tracked, _ := r.store.TrackedFiles("default")
	ids := map[string]bool{}
	for _, f := range tracked {
		ids[f.FileID] = true
	}
	if len(tracked) != 3 || ids[old[0].FileID] || !ids[replaced[old[0].FileID]] {
		t.Errorf("tracked %v", ids)
	}
}

// Cancelling (Ctrl-C in the CLI, esc in the console) while a batch is on
// the wire stops after that batch's response: it is journaled complete,
// the batches not started stay in the journal, and a resume sends them.
func TestCancelStopsAfterTheCurrentBatch(t *testing.T) {
	r := newRig(t)
	plan := r.files(120, 64<<10)
	ctx, cancel := context.WithCancel(context.Background())
	run := r.runner("a")
	run.Progress = func(p Progress) {
		if p.BytesDone > 0 {
			cancel() // mid-body of the first batch
		}
	}
	out, err := run.Upload(ctx, r.project, plan, api.DuplicateKeep)
	if err != nil || len(out.Uploaded) != 50 || out.Unfinished != 2 {
		t.Fatalf("err %v, %d uploaded, %d unfinished", err, len(out.Uploaded), out.Unfinished)
	}
	if n := len(r.listed()); n != 50 {
		t.Fatalf("project holds %d files after the stop, want the first batch's 50", n)
	}
	out, err = r.runner("b").Resume(context.Background())
	if err != nil || len(out.Uploaded) != 70 || len(r.listed()) != 120 {
		t.Fatalf("resume: %v, %d uploaded, %d listed", err, len(out.Uploaded), len(r.listed()))
	}
}

// Stopping is cheap: after a cancel, the batches not started are left in
// the journal as they are, without being opened and hashed first (a
// stopped 20 GB upload used to read all 20 GB before returning). Only the
// batches already prepared ahead of the one on the wire were opened.
func TestCancelDoesNotPrepareTheRemainingBatches(t *testing.T) {
	r := newRig(t)
	plan := r.files(300, 1<<10) // six batches of 50
	ctx, cancel := context.WithCancel(context.Background())
	run := r.runner("a")
	var opened atomic.Int64
	run.openLocal = func(p string) (*os.File, error) {
		opened.Add(1)
		return os.Open(p)
	}
	run.Progress = func(p Progress) {
		if p.BytesDone > 0 {
			cancel() // mid-body of the first batch
		}
	}
	out, err := run.Upload(ctx, r.project, plan, api.DuplicateKeep)
	if err != nil || len(out.Uploaded) != 50 || out.Unfinished != 5 {
		t.Fatalf("err %v, %d uploaded, %d unfinished", err, len(out.Uploaded), out.Unfinished)
	}
	// The first batch, plus at most the two prepared while it was sent.
	if n := opened.Load(); n > 150 {
		t.Errorf("%d files opened after a cancel during the first of six batches, want at most 150", n)
	}
	runs, err := r.store.UploadRuns("default")
	if err != nil || len(runs) != 1 || runs[0].Uploaded != 50 || runs[0].Pending != 250 || runs[0].Finished() {
		t.Fatalf("journal after the stop: %+v %v", runs, err)
	}
	out, err = r.runner("b").Resume(context.Background())
	if err != nil || len(out.Uploaded) != 250 || len(r.listed()) != 300 {
		t.Fatalf("resume: %v, %d uploaded, %d listed", err, len(out.Uploaded), len(r.listed()))
	}
}

// TestStopWhileAFileOpenBlocks: an open(2) that does not return (a file on
// a dead network mount) must not keep a stopped upload from ending: the
// run returns when ctx ends, the batch left pending for --resume.
func TestStopWhileAFileOpenBlocks(t *testing.T) {
	r := newRig(t)
	plan := r.files(3, 100)
	run := r.runner("me")
	entered, release := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release) })
	run.openLocal = func(name string) (*os.File, error) {
		if strings.HasSuffix(name, "doc-001.pdf") {
			close(entered)
			<-release
		}
		return os.Open(name)
	}
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		out Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := run.Upload(ctx, r.project, plan, api.DuplicateSkip)
		done <- result{out, err}
	}()
	<-entered
	cancel()
	select {
	case res := <-done:
		if res.err != nil || res.out.Unfinished != 1 || len(res.out.Uploaded) != 0 {
			t.Errorf("stopped upload: %v, unfinished %d, uploaded %d", res.err, res.out.Unfinished, len(res.out.Uploaded))
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the upload did not stop while a file's open was blocked")
	}
	if n := len(r.listed()); n != 0 {
		t.Errorf("%d files sent after the stop", n)
	}
}
