package writejob_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/api/writejob/writejobtest"
	"github.com/vaultdeck/vaultdeck/store"
)

func walkConfig() writejobtest.Config {
	return writejobtest.Config{Schedules: os.Getenv("VAULTDECK_FAULT_SCHEDULES"), Only: os.Getenv("VAULTDECK_FAULT_ONLY")}
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func deps(st *store.Store) writejob.Deps {
	return writejob.Deps{Store: st, MaxAttempts: 3, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
}

// TestARunSendsEachSendOnceAndRetriesTheBusy: every item settles from its
// own answer with the value before; the busy one after its retries.
func TestARunSendsEachSendOnceAndRetriesTheBusy(t *testing.T) {
	st := openStore(t)
	w := &world{}
	k, p := w.Fresh(t)
	id, err := writejob.Start(deps(st), p)
	if err != nil {
		t.Fatal(err)
	}
	rep := writejob.Run(context.Background(), deps(st), k, id)
	if rep.Err != nil || !rep.Settled() || rep.Job.Status != store.JobComplete {
		t.Fatalf("%v %+v", rep.Err, rep.Job)
	}
	if d := w.Applied(); len(d) > 0 {
		t.Fatal(d)
	}
	if w.k.sends != 5 { // 3 sends, then "busy" twice more
		t.Fatalf("%d requests, want 5", w.k.sends)
	}
	for _, it := range rep.Items {
		if it.Previous != start[it.Target] || it.Outcome != "set" {
			t.Errorf("%s: previous %q outcome %q", it.Target, it.Previous, it.Outcome)
		}
	}
}

// TestBusyPastTheBoundIsNamed: an item the service keeps refusing for
// later fails after MaxAttempts sends, named with its count.
func TestBusyPastTheBoundIsNamed(t *testing.T) {
	st := openStore(t)
	w := &world{}
	k, p := w.Fresh(t)
	w.k.busy = -10
	id, _ := writejob.Start(deps(st), p)
	rep := writejob.Run(context.Background(), deps(st), k, id)
	busy := rep.Items[2]
	if busy.State != writejob.Failed || !strings.Contains(busy.Detail, "after 3 attempts") || rep.Job.Status != store.JobComplete {
		t.Fatalf("%+v %+v", busy, rep.Job)
	}
}

// TestAnAnswerMatchesOneToOne: a repeated target, a stray one or a missing
// one makes the send's items unknown, never done, and stops the run.
func TestAnAnswerMatchesOneToOne(t *testing.T) {
	for name, rewrite := range map[string]func([]writejob.Answer) []writejob.Answer{
		"repeated": func(a []writejob.Answer) []writejob.Answer { a[len(a)-1].Target = a[0].Target; return a },
		"missing":  func(a []writejob.Answer) []writejob.Answer { return a[:len(a)-1] },
		"stray": func(a []writejob.Answer) []writejob.Answer {
			return append(a, writejob.Answer{Target: "zz", State: writejob.Done})
		},
	} {
		t.Run(name, func(t *testing.T) {
			st := openStore(t)
			w := &world{}
			k, p := w.Fresh(t)
			w.k.answer = rewrite
			id, _ := writejob.Start(deps(st), p)
			rep := writejob.Run(context.Background(), deps(st), k, id)
			var me *writejob.MatchError
			if !errors.As(rep.Err, &me) || rep.Count(writejob.Done) != 0 || rep.Count(writejob.Unknown) != 2 || rep.Job.Status != store.JobStopped {
				t.Fatalf("err %v, done %d unknown %d, status %s", rep.Err, rep.Count(writejob.Done), rep.Count(writejob.Unknown), rep.Job.Status)
			}
			// a resume asks the service what the request did, and goes on
			w.k.answer = nil
			rep = writejob.Resume(context.Background(), deps(st), k, id)
			if rep.Err != nil || !rep.Settled() || len(w.Applied()) > 0 {
				t.Fatalf("resume: %v %v", rep.Err, w.Applied())
			}
		})
	}
}

// TestUndoRefusesWhatChangedSince: the undo puts back only what still is
// as the job left it, and names the rest.
func TestUndoRefusesWhatChangedSince(t *testing.T) {
	st := openStore(t)
	w := &world{}
	k, p := w.Fresh(t)
	id, _ := writejob.Start(deps(st), p)
	writejob.Run(context.Background(), deps(st), k, id)
	w.k.vals["b"] = "colleague"
	_, up, err := writejob.PlanUndo(context.Background(), st, k, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(up.Refused) != 1 || up.Refused[0].Target != "b" || len(up.Items) != 3 {
		t.Fatalf("%+v", up)
	}
	undo, err := writejob.NewPlan(store.WriteJob{Kind: "set", BaseURL: "http://sim", UndoOf: id}, up.Items)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := writejob.Start(deps(st), undo)
	if rep := writejob.Run(context.Background(), deps(st), k, uid); rep.Err != nil || !rep.Settled() {
		t.Fatal(rep.Err)
	}
	if w.k.vals["a"] != "1" || w.k.vals["b"] != "colleague" || w.k.vals["c"] != "3" {
		t.Fatalf("%v", w.k.vals)
	}
	if _, _, err := writejob.PlanUndo(context.Background(), st, k, id); err == nil || !strings.Contains(err.Error(), "already undone") {
		t.Fatalf("a second undo: %v", err)
	}
}

// TestFaultWalkOfTheWriteJobCore walks every write point of a job and of
// its undo (storefault's), with every fault, without and with a lost
// answer, over the smallest kind.
func TestFaultWalkOfTheWriteJobCore(t *testing.T) {
	n := writejobtest.Walk(t, &world{}, walkConfig())
	t.Logf("%d schedules walked", n)
}
