package upload

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// stopDuringRead is the metadata read a first Ctrl-C stops while it waits
// (on the vault budget): the context ends, the read returns its error.
type stopDuringRead struct {
	inner  Metadata
	cancel context.CancelFunc
	reads  int
}

func (s *stopDuringRead) GetMetadata(ctx context.Context, pid string) (*api.ProjectMetadata, error) {
	s.reads++
	if s.cancel != nil {
		s.cancel()
		return nil, ctx.Err()
	}
	return s.inner.GetMetadata(ctx, pid)
}

// TestAStopDuringTheLimitsReadSendsNothing: the first stop during the
// limits read leaves the run journaled and unsent (a resume's to send), and
// the resume reads the limits again before sending: a project filled
// meanwhile refuses it by name, nothing sent, the run still unsent.
func TestAStopDuringTheLimitsReadSendsNothing(t *testing.T) {
	r := newRig(t)
	plan := r.files(3, 10)
	ctx, cancel := context.WithCancel(context.Background())
	meta := &stopDuringRead{inner: r.client, cancel: cancel}
	run := r.runner("a")
	run.Limits = meta
	out, err := run.Upload(ctx, r.project, plan, api.DuplicateSkip)
	if err != nil || out.Unfinished != 1 || len(out.Uploaded) != 0 || len(out.RunIDs) != 1 {
		t.Fatalf("stopped during the limits read: %+v %v, want one run journaled, its batch unfinished", out, err)
	}
	if len(out.Errors) != 1 || !strings.Contains(out.Errors[0], "not sent") || !strings.Contains(out.Errors[0], "--resume") {
		t.Fatalf("the stop does not say nothing was sent and what to run: %q", out.Errors)
	}
	if n := len(r.listed()); n != 0 {
		t.Fatalf("the project holds %d files after a stop before sending", n)
	}
	// the project fills up before the resume
	specs := make([]sim.FileSpec, 9)
	for i := range specs {
		specs[i] = sim.FileSpec{Name: fmt.Sprintf("colleague %d.pdf", i), Size: 10}
	}
	r.sim.AddFiles(r.project, specs)
	r.sim.SetProjectLimits(r.project, 10, 1_000_000)
	meta.cancel = nil
	out, err = run.Resume(context.Background())
	if err != nil || len(out.Uploaded) != 0 || out.Unfinished != 1 || len(out.Errors) != 1 ||
		!strings.Contains(out.Errors[0], "allows 10 files and holds 9, so 1 more fit; this upload adds 3") {
		t.Fatalf("resume past the limit: %+v %v", out, err)
	}
	if meta.reads != 2 {
		t.Fatalf("%d limits reads, want one for the upload and one for the resume", meta.reads)
	}
	if n := len(r.listed()); n != 9 {
		t.Fatalf("the project holds %d files, want the colleague's 9", n)
	}
	// room made: the resume sends the run
	r.sim.SetProjectLimits(r.project, 100, 1_000_000)
	out, err = run.Resume(context.Background())
	if err != nil || len(out.Uploaded) != 3 || out.Partial() {
		t.Fatalf("resume within the limits: %+v %v", out, err)
	}
}
