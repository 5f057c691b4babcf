package upload

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// colleagueThenKilled is issue 17's first case in process: a colleague
// (client A, another machine, no journal here) uploads doc-000..doc-059,
// then this client (B) uploads files of the same names with new content a
// few seconds later (its clock says so: no sleeping), and is killed after
// journaling its first batch's start, before the request reaches the
// service. It returns A's file IDs by name and the outcome of B's resume.
func colleagueThenKilled(t *testing.T, r *rig, mode api.DuplicateMode, colleagueSize int) (map[string]string, Outcome) {
	t.Helper()
	const n, size = 60, 100
	var specs []sim.FileSpec
	for i := range n {
		specs = append(specs, sim.FileSpec{Name: fmt.Sprintf("doc-%03d.pdf", i), Size: int64(colleagueSize)})
	}
	ids, err := r.sim.AddFiles(r.project, specs)
	if err != nil {
		t.Fatal(err)
	}
	colleague := map[string]string{}
	for i, id := range ids {
		colleague[specs[i].Name] = id
	}
	plan := r.files(n, size)
	later := func() time.Time { return time.Now().Add(3 * time.Second) }
	b := r.runner("dead")
	b.Now = later
	b.crashAt = func(step string, _ int64) bool { return step == StepRecorded }
	if _, err := b.Upload(context.Background(), r.project, plan, mode); !errors.Is(err, ErrCrashed) {
		t.Fatalf("crash: %v", err)
	}
	resumer := r.runner("alive")
	resumer.Now = later
	resumer.Steal = func(h string) bool { return h == "dead" }
	out, err := resumer.Resume(context.Background())
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	return colleague, out
}

// noColleagueAdopted fails if B's journal calls any of A's files its own.
func noColleagueAdopted(t *testing.T, r *rig, colleague map[string]string) {
	t.Helper()
	theirs := map[string]bool{}
	for _, id := range colleague {
		theirs[id] = true
	}
	for name, id := range r.journalIDs() {
		if theirs[id] {
			t.Errorf("%s: the journal adopted the colleague's file %s", name, id)
		}
	}
}

// TestResumeDoesNotAdoptAColleaguesFiles: the old reconciliation matched
// by name and time alone (with 5 minutes of clock tolerance), so B's
// resume adopted A's 60 files: uploaded 60, exit 0, A's content on the
// server. Under replace a re-send is what the user asked for; under keep,
// with files of the same name and size there, arrival can be neither
// proven nor ruled out, so the files are named as unproven.
func TestResumeDoesNotAdoptAColleaguesFiles(t *testing.T) {
	t.Run("replace", func(t *testing.T) {
		r := newRig(t)
		colleague, out := colleagueThenKilled(t, r, api.DuplicateReplace, 100)
		noColleagueAdopted(t, r, colleague)
		if len(out.Uploaded) != 60 || out.Partial() || len(out.Notes) == 0 {
			t.Errorf("uploaded %d, unproven %d, partial %v, notes %q", len(out.Uploaded), len(out.Unproven), out.Partial(), out.Notes)
		}
		ids := r.journalIDs()
		for name, listed := range r.listed() {
			if len(listed) != 1 || listed[0] != ids[name] {
				t.Errorf("%s: the project lists %v, this client's upload is %q", name, listed, ids[name])
			}
		}
	})
	t.Run("keep same size", func(t *testing.T) {
		r := newRig(t)
		colleague, out := colleagueThenKilled(t, r, api.DuplicateKeep, 100)
		noColleagueAdopted(t, r, colleague)
		if len(out.Uploaded) != 10 || len(out.Unproven) != 50 || !out.Partial() {
			t.Errorf("uploaded %d, unproven %d, partial %v", len(out.Uploaded), len(out.Unproven), out.Partial())
		}
		runs, _ := r.store.UploadRuns("default")
		if len(runs) != 1 || runs[0].Unproven != 50 || runs[0].Finished() {
			t.Errorf("runs %+v", runs)
		}
		// A later resume has nothing to send, but the 50 are still not
		// known to have arrived: they are named again and keep it partial
		// (it said "nothing to do", exit 0, before).
		again, err := r.runner("later").Resume(context.Background())
		if err != nil || len(again.Unproven) != 50 || !again.Partial() || len(again.Uploaded) != 0 {
			t.Errorf("second resume: %v, unproven %d, uploaded %d, partial %v", err, len(again.Unproven), len(again.Uploaded), again.Partial())
		}
	})
	t.Run("keep other size", func(t *testing.T) {
		r := newRig(t)
		colleague, out := colleagueThenKilled(t, r, api.DuplicateKeep, 99)
		noColleagueAdopted(t, r, colleague)
		if len(out.Uploaded) != 60 || out.Partial() {
			t.Errorf("uploaded %d, unproven %d, partial %v", len(out.Uploaded), len(out.Unproven), out.Partial())
		}
		if n := len(r.listed()); n != 120 {
			t.Errorf("the project lists %d names, want A's 60 and B's 60 renamed", n)
		}
	})
	t.Run("skip", func(t *testing.T) {
		r := newRig(t)
		colleague, out := colleagueThenKilled(t, r, api.DuplicateSkip, 100)
		noColleagueAdopted(t, r, colleague)
		if len(out.Uploaded) != 0 || len(out.Skipped) != 60 || out.Partial() {
			t.Errorf("uploaded %d, skipped %d, partial %v", len(out.Uploaded), len(out.Skipped), out.Partial())
		}
	})
}

// TestReconcileAdoptsOnlyWhenEverythingAgrees is the rule's table: a
// listed file is this batch's only when its name (or, under keep, the
// renamed form), size and upload time agree, no journal record claims it,
// and nothing else listed could be it.
func TestReconcileAdoptsOnlyWhenEverythingAgrees(t *testing.T) {
	began := time.Date(2026, 1, 2, 10, 0, 0, 500e6, time.UTC)
	at := func(d time.Duration) api.Time { return api.Time{Time: began.Truncate(time.Second).Add(d)} }
	file := store.JournalFile{ID: 1, Name: "a.pdf", Size: 10, State: store.FilePending}
	cases := []struct {
		name    string
		mode    api.DuplicateMode
		listed  []api.ProjectFile
		claimed string
		want    string // adopt:<id>, resend, unproven
	}{
		{"nothing listed", api.DuplicateKeep, nil, "", "resend"},
		{"all agree", api.DuplicateKeep, []api.ProjectFile{{ID: "x", Name: "a.pdf", Size: 10, UploadedAt: at(time.Second)}}, "", "adopt:x"},
		{"renamed under keep", api.DuplicateKeep, []api.ProjectFile{{ID: "x", Name: "a (2).pdf", Size: 10, UploadedAt: at(time.Second)}}, "", "adopt:x"},
		{"renamed but replace", api.DuplicateReplace, []api.ProjectFile{{ID: "x", Name: "a (2).pdf", Size: 10, UploadedAt: at(time.Second)}}, "", "resend"},
		{"other size", api.DuplicateKeep, []api.ProjectFile{{ID: "x", Name: "a.pdf", Size: 11, UploadedAt: at(time.Second)}}, "", "resend"},
		{"before the batch, keep", api.DuplicateKeep, []api.ProjectFile{{ID: "x", Name: "a.pdf", Size: 10, UploadedAt: at(-time.Second)}}, "", "unproven"},
		{"before the batch, replace", api.DuplicateReplace, []api.ProjectFile{{ID: "x", Name: "a.pdf", Size: 10, UploadedAt: at(-time.Second)}}, "", "resend"},
		{"claimed by the journal", api.DuplicateKeep, []api.ProjectFile{{ID: "x", Name: "a.pdf", Size: 10, UploadedAt: at(time.Second)}}, "x", "resend"},
		{"two that could be it", api.DuplicateKeep, []api.ProjectFile{
			{ID: "x", Name: "a.pdf", Size: 10, UploadedAt: at(time.Second)},
			{ID: "y", Name: "a (1).pdf", Size: 10, UploadedAt: at(2 * time.Second)}}, "", "unproven"},
		{"one before, one after", api.DuplicateKeep, []api.ProjectFile{
			{ID: "x", Name: "a.pdf", Size: 10, UploadedAt: at(-time.Minute)},
			{ID: "y", Name: "a (1).pdf", Size: 10, UploadedAt: at(time.Second)}}, "", "unproven"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			claimed := map[string]bool{}
			if c.claimed != "" {
				claimed[c.claimed] = true
			}
			b := store.JournalBatch{Run: store.UploadRun{Mode: string(c.mode)}, BeganAt: began, Files: []store.JournalFile{file}}
			d := decide(b, c.listed, claimed)
			got := "resend"
			switch {
			case len(d.adopt) == 1:
				got = "adopt:" + d.adopt[0].FileID
			case len(d.unproven) == 1:
				got = "unproven"
			}
			if got != c.want {
				t.Errorf("got %s, want %s (%+v)", got, c.want, d)
			}
		})
	}
}

// TestReconcileRespectsOtherProfilesClaims: another profile of this machine
// (the same workspace under another name) journaled a file; a lost answer
// of this profile must not adopt it, even when everything else agrees.
func TestReconcileRespectsOtherProfilesClaims(t *testing.T) {
	r := newRig(t)
	plan := r.files(1, 100)
	other := &Runner{API: r.client, Store: r.store, Profile: "other", Owner: "other"}
	if out, err := other.Upload(context.Background(), r.project, plan, api.DuplicateKeep); err != nil || len(out.Uploaded) != 1 {
		t.Fatalf("other profile's upload: %v %+v", err, out)
	}
	theirs := out0(t, r, "other")
	b := r.runner("dead")
	b.crashAt = func(step string, _ int64) bool { return step == StepRecorded }
	if _, err := b.Upload(context.Background(), r.project, plan, api.DuplicateKeep); !errors.Is(err, ErrCrashed) {
		t.Fatalf("crash: %v", err)
	}
	resumer := r.runner("alive")
	resumer.Steal = func(h string) bool { return h == "dead" }
	out, err := resumer.Resume(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range out.Uploaded {
		if f.FileID == theirs {
			t.Errorf("adopted the other profile's file %s", theirs)
		}
	}
}

func out0(t *testing.T, r *rig, profile string) string {
	t.Helper()
	runs, _ := r.store.UploadRuns(profile)
	files, _ := r.store.RunFiles(runs[0].ID)
	return files[0].FileID
}
