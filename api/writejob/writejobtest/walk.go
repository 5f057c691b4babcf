// Package writejobtest is for tests only: the fault walk of a write job,
// generic over its kind. Every write point the core makes to the store
// (storefault's: each BEGIN, changing statement and COMMIT of Start,
// in-flight, settle and finish, for the job and for its undo) is made to
// fail in turn with every fault, and, where the service's answer is lost,
// the request acts but its answer never arrives. Then a new process (a
// new store handle on the same file) does what a person would: resume
// the job (or, when it was never recorded, start it again), then undo it.
// A kind's test supplies a World: its kind over a fresh service and the
// two states the service must end in.
package writejobtest

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// World is one kind's side of the walk.
type World interface {
	// Fresh puts the service in its starting state and returns the kind
	// over it and the job to run.
	Fresh(t *testing.T) (writejob.Kind, *writejob.Plan)
	// Applied says how the service differs from the plan carried out
	// (nothing: exactly the plan).
	Applied() []string
	// Reverted says how the service differs from its starting state after
	// the undo (nothing: exactly back), when the kind can be undone.
	Reverted() []string
	// Undoable says whether the walk plans and runs an undo.
	Undoable() bool
}

// ReceiptChecker is a World that also checks the receipt's items after the
// job settled (each outcome as the service's answers make it).
type ReceiptChecker interface {
	Receipt(items []writejob.Item) []string
}

// Sleeper is a Kind whose world moves while the core waits before a
// retry (a simulator's clock): the walk waits through it.
type Sleeper interface {
	Sleep(ctx context.Context, d time.Duration) error
}

// Schedule is one walk: which job's write fails (phase "run" or "undo",
// at its at-th write point; 0: none), with which fault, and which request
// of that job (1-based, 0: none) has its answer lost.
type Schedule struct {
	Phase string
	At    int
	Fault storefault.Fault
	Lose  int
}

func (s Schedule) String() string {
	return fmt.Sprintf("%s %d %s %d", s.Phase, s.At, s.Fault, s.Lose)
}

// Walk runs the walk over w and returns how many schedules it ran. In CI
// every write point of the job and of its undo is walked three times (no
// answer lost, request 1's lost, request 2's lost), each time with one
// fault, taken in turn; VAULTDECK_FAULT_SCHEDULES=all walks every fault at
// every point in every mode, =N about N spread over them all.
// VAULTDECK_FAULT_ONLY="phase at fault lose" (as a failure names it)
// replays one.
//
// The caller reads the two settings (the environment's names are listed
// by `vaultdeck help environment` from the tests that read them).
func Walk(t *testing.T, w World, c Config) int {
	t.Helper()
	if only := c.Only; only != "" {
		var s Schedule
		var name string
		if _, err := fmt.Sscan(only, &s.Phase, &s.At, &name, &s.Lose); err != nil {
			t.Fatalf("VAULTDECK_FAULT_ONLY=%q: want \"phase at fault lose\": %v", only, err)
		}
		for _, f := range storefault.Faults {
			if f.String() == name {
				s.Fault = f
			}
		}
		walkOne(t, w, s)
		return 1
	}
	phases := []string{"run"}
	if w.Undoable() {
		phases = append(phases, "undo")
	}
	points := map[string]int{}
	for _, ph := range phases {
		points[ph] = walkOne(t, w, Schedule{Phase: ph})
	}
	// every schedule: each write point of each job with each fault, with
	// no answer lost, then with the answer of request 1, then 2, lost
	var all []Schedule
	for _, lose := range []int{0, 1, 2} {
		for _, ph := range phases {
			for at := 1; at <= points[ph]; at++ {
				for _, f := range storefault.Faults {
					all = append(all, Schedule{Phase: ph, At: at, Fault: f, Lose: lose})
				}
			}
		}
	}
	want := len(all)
	if v := c.Schedules; v != "all" {
		// CI: every write point of both jobs in each of the three answer
		// modes, the fault taken in turn (the point's number picks it)
		want = 0
		if v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				t.Fatalf("VAULTDECK_FAULT_SCHEDULES=%q is neither all nor a positive number", v)
			}
			want = n
		}
	}
	t.Logf("write points: %v; %d schedules in all (VAULTDECK_FAULT_SCHEDULES=all)", points, len(all))
	ran := len(phases)
	for i, s := range all {
		if t.Failed() {
			break
		}
		turn := (s.At + s.Lose) % len(storefault.Faults)
		switch {
		case want == 0 && s.Fault != storefault.Faults[turn]:
			continue
		case want > 0 && ran >= want+len(phases):
			return ran
		case want > 0 && want < len(all) && i%((len(all)+want-1)/want) != 0:
			continue
		}
		walkOne(t, w, s)
		ran++
	}
	return ran
}

// Config is the walk's two settings, as VAULTDECK_FAULT_SCHEDULES and
// VAULTDECK_FAULT_ONLY give them.
type Config struct {
	Schedules string // "": CI's; "all"; or about N
	Only      string // "phase at fault lose": replay one
}

// inProcess runs fn as a process would: a crash (Goexit) ends it there.
func inProcess(fn func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	<-done
}

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// process is one process's view of the file: a store through its own
// injector and the kind guarded over it.
type process struct {
	inj *storefault.Injector
	st  *store.Store
	j   *journal
	k   *guarded
	d   writejob.Deps
}

func open(t *testing.T, path string, k writejob.Kind, reader *store.Store, lose int, bad *[]string) *process {
	inj := storefault.New()
	st, err := inj.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j := &journal{Journal: st}
	p := &process{inj: inj, st: st, j: j}
	p.k = &guarded{Kind: k, inj: inj, j: j, reader: reader, lose: lose, bad: bad}
	p.d = writejob.Deps{Store: j, Sleep: noSleep, MaxAttempts: 3}
	if sl, ok := k.(Sleeper); ok {
		p.d.Sleep = sl.Sleep
	}
	return p
}

// walkOne runs one schedule and returns the write points of its phase's
// job (counted when the schedule arms no fault).
func walkOne(t *testing.T, w World, s Schedule) int {
	t.Helper()
	path := filepath.Join(t.TempDir(), store.FileName)
	reader, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	var bad []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("schedule %s (replay: VAULTDECK_FAULT_ONLY=%q): %s", s, s.String(), fmt.Sprintf(format, args...))
	}
	k, plan := w.Fresh(t)
	ctx := context.Background()

	// the job, in the process the fault may strike
	lose := map[bool]int{true: s.Lose}[s.Phase == "run"]
	p := open(t, path, k, reader, lose, &bad)
	points := 0
	if s.Phase == "run" {
		p.inj.FailAt(s.At, s.Fault)
	}
	var rep *writejob.Report
	inProcess(func() {
		id, err := writejob.Start(p.d, plan)
		if err != nil {
			return
		}
		rep = writejob.Run(ctx, p.d, p.k, id)
	})
	if s.Phase == "run" {
		points = p.inj.Points()
		if p.j.failed && rep != nil && rep.Err == nil && rep.Settled() && rep.Job.Status == store.JobComplete {
			if _, fired := p.inj.Fired(); fired && s.Fault != storefault.Busy {
				fail("the run said complete although a write of its journal failed")
			}
		}
	}
	p.st.Close()

	// a new process: resume what was recorded, or run it again
	id := carryOn(t, w, path, k, reader, plan, &bad, fail)
	if d := w.Applied(); len(d) > 0 {
		fail("after the run and its resume the service is not the plan: %s", strings.Join(d, "; "))
	}
	for _, b := range bad {
		fail("%s", b)
	}
	bad = nil
	if !w.Undoable() || id == 0 {
		return points
	}

	// the undo, in a process the fault may strike
	lose = map[bool]int{true: s.Lose}[s.Phase == "undo"]
	u := open(t, path, k, reader, lose, &bad)
	if s.Phase == "undo" {
		u.inj.FailAt(s.At, s.Fault)
	}
	inProcess(func() {
		_, up, err := writejob.PlanUndo(ctx, u.j, u.k, id)
		if err != nil {
			fail("the undo could not be planned: %v", err)
			return
		}
		if len(up.Refused) > 0 {
			fail("the undo refused %s with nothing changed since", plural.Count(len(up.Refused), "item"))
		}
		job := store.WriteJob{Kind: k.Name(), Profile: "walk", BaseURL: "http://sim", UndoOf: id, Plan: up.Text}
		undo, err := writejob.NewPlan(job, up.Items)
		if err != nil {
			fail("the undo's plan: %v", err)
			return
		}
		uid, err := writejob.Start(u.d, undo)
		if err != nil {
			return
		}
		writejob.Run(ctx, u.d, u.k, uid)
	})
	if s.Phase == "undo" {
		points = u.inj.Points()
	}
	u.st.Close()
	// a new process finishes the undo: resume it, or plan it again
	undoes, err := reader.UndoneBy(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(undoes) == 0 {
		q := open(t, path, k, reader, 0, &bad)
		_, up, err := writejob.PlanUndo(ctx, q.j, q.k, id)
		if err == nil {
			undo, _ := writejob.NewPlan(store.WriteJob{Kind: k.Name(), Profile: "walk", BaseURL: "http://sim", UndoOf: id, Plan: up.Text}, up.Items)
			if uid, err := writejob.Start(q.d, undo); err == nil {
				writejob.Run(ctx, q.d, q.k, uid)
			}
		} else {
			fail("the undo could not be planned again: %v", err)
		}
		q.st.Close()
	} else {
		uid := undoes[len(undoes)-1]
		q := open(t, path, k, reader, 0, &bad)
		q.j.job = uid
		if rep := writejob.Resume(ctx, q.d, q.k, uid); !rep.Settled() || rep.Err != nil {
			fail("the undo's resume did not settle it: %v", rep.Err)
		}
		q.st.Close()
	}
	if d := w.Reverted(); len(d) > 0 {
		fail("after the undo the service is not as it was: %s", strings.Join(d, "; "))
	}
	for _, b := range bad {
		fail("%s", b)
	}
	return points
}

// carryOn is the person's next step in a new process: the job recorded is
// resumed until it settles; a job never recorded is started again. It
// returns the job that carried the plan out.
func carryOn(t *testing.T, w World, path string, k writejob.Kind, reader *store.Store, plan *writejob.Plan, bad *[]string,
	fail func(string, ...any)) int64 {
	t.Helper()
	jobs, err := reader.WriteJobs(k.Name())
	if err != nil {
		t.Fatal(err)
	}
	q := open(t, path, k, reader, 0, bad)
	defer q.st.Close()
	ctx := context.Background()
	var rep *writejob.Report
	if len(jobs) == 0 {
		id, err := writejob.Start(q.d, plan)
		if err != nil {
			fail("the job could not be started again: %v", err)
			return 0
		}
		rep = writejob.Run(ctx, q.d, q.k, id)
	} else {
		q.j.job = jobs[0].ID
		rep = writejob.Resume(ctx, q.d, q.k, jobs[0].ID)
	}
	if rep.Err != nil || !rep.Settled() || rep.Job.Status != store.JobComplete {
		fail("the resume did not settle the job: status %q, err %v", rep.Job.Status, rep.Err)
	}
	for _, it := range rep.Items {
		if it.State != writejob.Done {
			fail("item %s ended %s (%s), want done", it.Target, it.State, it.Detail)
		}
	}
	if rc, ok := w.(ReceiptChecker); ok {
		for _, d := range rc.Receipt(rep.Items) {
			fail("the receipt: %s", d)
		}
	}
	return rep.Job.ID
}
