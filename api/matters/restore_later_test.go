package matters

import (
	"context"
	"strings"
	"testing"
)

// A deletion killed after it wrote a request's pairs in flight, before
// sending it; the file is re-run, and that second run deletes them. A
// restore of the first run saw them deleted after its send time (Judge's
// rule) and brought them back: it undid the second run's deletion. Found
// by the fault walk ("seed 1, delete, write 2, crash-after"). This
// machine's receipts know better: a later deletion that sent the pair
// answers for it, so the first restore leaves it alone and names the
// receipt whose restore brings it back.
func TestRestoreLeavesWhatALaterDeletionDeleted(t *testing.T) {
	wk := newWalker(t)
	w := wk.world(t, schedule{seed: 1, phase: "delete"})
	_, r1 := w.deleteStep("the killed deletion", &faulty{crash: "in_flight of request 1", after: true}, nil)
	_, r2 := w.deleteStep("the re-run", &faulty{}, nil)
	st := w.open()
	defer st.Close()
	plan, err := PlanRestore(st, r1)
	if err != nil {
		t.Fatal(err)
	}
	var upserted []string
	f := &faulty{st: st}
	svc := &watched{c: w.c, st: st, f: f, line: w.line, undoes: w.deletedBy[r1], bad: &w.bad}
	_, rep, err := Restore(context.Background(), Deps{Service: svc, Store: f, Profile: "p"}, plan, Watch{})
	if err != nil {
		t.Fatal(err)
	}
	upserted = append(upserted, w.bad...)
	if len(upserted) > 0 {
		t.Fatalf("restore of receipt %d: %s", r1, strings.Join(upserted, "; "))
	}
	outs := plan.Later
	if rep != nil {
		outs = rep.Outcomes
	} else if msg := NothingToRestore(plan); !strings.Contains(msg, "sent again later by deletion receipt 2") {
		t.Errorf("nothing to restore, said as %q", msg)
	}
	named := 0
	for _, o := range outs {
		if o.Code == CodeDeletedLater && strings.Contains(o.Detail, "receipt 2") {
			named++
		}
	}
	if named == 0 || r2 != 2 {
		t.Errorf("the pairs receipt %d deleted are not named as its: %+v", r2, outs)
	}
}
