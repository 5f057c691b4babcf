package upload

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// A clock set forward, then back (an NTP step, a restored VM snapshot):
// an upload whose request arrived but whose answer was lost (killed after
// the response, before the journal) began, by the journal, an hour after
// the resume's now. The listing was read from that start less the five
// minutes of clock tolerance, so the files that did arrive (the service's
// upload time is the true one, an hour earlier) were not in it, were taken
// as never arrived and sent again: under keep, one "(1)" copy of each,
// with every file called uploaded and exit 0. Through the binary: 50
// "(1)" copies of a batch whose start the journal dated an hour ahead.
// A start the clock has not reached yet says the clock went back since; no
// window drawn from it can be trusted, so the whole listing is read.
func TestResumeAfterTheClockWentBackMakesNoCopies(t *testing.T) {
	for _, mode := range []api.DuplicateMode{api.DuplicateKeep, api.DuplicateSkip, api.DuplicateReplace} {
		t.Run(string(mode), func(t *testing.T) {
			r := newRig(t)
			plan := r.files(60, 100)
			b := r.runner("dead")
			b.Now = func() time.Time { return time.Now().Add(time.Hour) } // the clock an hour ahead
			b.crashAt = func(step string, _ int64) bool { return step == StepResponded }
			if _, err := b.Upload(context.Background(), r.project, plan, mode); !errors.Is(err, ErrCrashed) {
				t.Fatalf("crash: %v", err)
			}
			resumer := r.runner("alive") // the clock set right again
			resumer.Steal = func(h string) bool { return h == "dead" }
			out, err := resumer.Resume(context.Background())
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			for name, ids := range r.listed() {
				if len(ids) > 1 || strings.Contains(name, "(") {
					t.Errorf("the project holds %s %d time(s) after the resume", name, len(ids))
				}
			}
			if n := len(r.listed()); n != 60 {
				t.Errorf("the project holds %d files, want 60", n)
			}
			if mode == api.DuplicateKeep && !out.Partial() {
				t.Errorf("keep: the resume says all is done (uploaded %d, unproven %d) with the arrival of the lost batch unproven", len(out.Uploaded), len(out.Unproven))
			}
		})
	}
}
