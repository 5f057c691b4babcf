package matters

// The worlds the fault walk runs in (fault_test.go): an in-process
// simulator, a matter file drawn from it by the schedule's seed, and one
// store file that every step opens afresh, as a new process would.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// walker holds what every schedule shares: one loopback server in front
// of the current world's simulator, and a migrated empty store to copy
// (migrating a fresh file per schedule would cost more than the walk).
type walker struct {
	srv *httptest.Server
	cur atomic.Pointer[sim.Server]
	tpl []byte
	dir string
}

func newWalker(t *testing.T) *walker {
	wk := &walker{dir: t.TempDir()}
	// The faulted step's store commits with fsync (storefault opens as the
	// program does): on tmpfs that costs nothing, on a disk a few
	// milliseconds a commit, hundreds of times.
	if d, err := os.MkdirTemp("/dev/shm", "vaultdeck-faultwalk-"); err == nil {
		wk.dir = d
		t.Cleanup(func() { os.RemoveAll(d) })
	}
	wk.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { wk.cur.Load().ServeHTTP(w, r) }))
	t.Cleanup(wk.srv.Close)
	tpl := filepath.Join(wk.dir, "template.db")
	st, err := store.Open(tpl)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if wk.tpl, err = os.ReadFile(tpl); err != nil {
		t.Fatal(err)
	}
	return wk
}

// world is one schedule's workspace, file and store.
type world struct {
	t     *testing.T
	s     schedule
	rng   *rand.Rand
	sv    *sim.Server
	c     *api.Client
	path  string
	pairs []Pair
	line  map[pairKey]int // the first line of each trimmed pair
	clean bool            // nothing refused before sending: a run can succeed
	batch int
	// start counts each pair's records when the walk began, plus those a
	// colleague created since: no restore may ever make more.
	start map[pairKey]int
	// deletedBy is what each deletion run deleted (live before it, not
	// after): all a restore of it may bring back.
	deletedBy map[int64]map[pairKey]bool
	// loseDelete and loseRestore: the request of the world's first
	// deletion and first restore whose answer is lost (0: none), so the
	// walk meets outcome_unknown pairs too.
	loseDelete, loseRestore int
	bad                     []string
	checker                 *store.Store // the checker's handle, opened once (opening costs more than reading)
}

func (w *world) reader() *store.Store {
	if w.checker == nil {
		w.checker = w.open()
	}
	return w.checker
}

// The simulator's clock runs on the wall clock, shifted once the world is
// set up, so that whatever the world deleted beforehand is well before
// any request of the walk (Judge's boundary is about a second wide). It
// is never moved again: the receipts' send times are this machine's wall
// clock, and a service clock that jumped between steps would make every
// deletion look older than its request.
func (wk *walker) world(t *testing.T, s schedule) *world {
	rng := rand.New(rand.NewPCG(uint64(s.seed), 25))
	sv := sim.New(sim.Options{Seed: 1, NoRateLimit: true})
	wk.cur.Store(sv)
	c, err := api.New(api.Config{BaseURL: wk.srv.URL, Token: api.StaticToken(sv.Token("admin")), Limits: api.Limits{Matters: -1}})
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, s: s, rng: rng, sv: sv, c: c, line: map[pairKey]int{}, start: map[pairKey]int{},
		deletedBy: map[int64]map[pairKey]bool{}, batch: 2 + rng.IntN(2),
		path: filepath.Join(wk.dir, fmt.Sprintf("w%d-%s-%d-%s.db", s.seed, s.phase, s.at, s.fault))}
	if err := os.WriteFile(w.path, wk.tpl, 0o600); err != nil {
		t.Fatal(err)
	}
	var live []Pair
	for _, m := range sv.Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") {
			live = append(live, Pair{ClientID: m.ClientID, MatterID: m.MatterID})
		}
	}
	rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
	w.pairs = append(w.pairs, live[:2+rng.IntN(4)]...)
	for i := range rng.IntN(3) { // never existed
		w.pairs = append(w.pairs, Pair{ClientID: "ZZ", MatterID: fmt.Sprintf("A-%d", i)})
	}
	if rng.IntN(2) == 0 { // deleted before the walk: never this run's to restore
		if _, err := sv.AddMatter(sim.MatterSpec{ClientID: "ZD", MatterID: "D-1", Deleted: true}); err != nil {
			t.Fatal(err)
		}
		w.pairs = append(w.pairs, Pair{ClientID: "ZD", MatterID: "D-1"})
	}
	w.clean = rng.IntN(3) != 0
	if !w.clean { // refused before sending: a blank client, a repeat
		w.pairs = append(w.pairs, Pair{ClientID: "  ", MatterID: "X"}, Pair{ClientID: " " + live[0].ClientID + " ", MatterID: live[0].MatterID})
	}
	rng.Shuffle(len(w.pairs), func(i, j int) { w.pairs[i], w.pairs[j] = w.pairs[j], w.pairs[i] })
	for i := range w.pairs {
		w.pairs[i].Line = i + 2 // line 1 is the header
		if k := key(w.pairs[i].ClientID, w.pairs[i].MatterID); w.line[k] == 0 {
			w.line[k] = w.pairs[i].Line
		}
	}
	for k, r := range w.records() {
		w.start[k] = r.n
	}
	if rng.IntN(3) == 0 {
		w.loseDelete = 1 + rng.IntN(2)
	}
	if rng.IntN(4) == 0 {
		w.loseRestore = 1
	}
	sv.Advance(time.Minute)
	return w
}

// rec is what the simulator holds for one pair of the file.
type rec struct {
	n    int  // records carrying the pair
	live bool // one of them is not deleted
}

func (w *world) records() map[pairKey]rec {
	out := make(map[pairKey]rec, len(w.line))
	for k := range w.line {
		out[k] = rec{}
	}
	for _, m := range w.sv.Matters() {
		k := key(m.ClientID, m.MatterID)
		if r, ok := out[k]; ok {
			r.n++
			r.live = r.live || !m.Deleted
			out[k] = r
		}
	}
	return out
}

// open is a new process's store handle on the world's file. Commits skip
// the fsync (a crash here is the process's, not the machine's).
func (w *world) open() *store.Store {
	st, err := store.OpenWith(w.path, store.Options{NoSync: true})
	if err != nil {
		panic(fmt.Sprintf("the world's database %s: %v", w.path, err))
	}
	return st
}

// colleague sometimes creates a matter for a pair of the file that never
// existed, between two steps: no restore may touch it, and a re-run of
// the file deletes it (what a receipt now says, issue 25 case 7).
func (w *world) colleague() {
	if w.rng.IntN(3) != 0 {
		return
	}
	for k, r := range w.records() {
		if r.n == 0 && k.c != "" && k.m != "" {
			if _, err := w.sv.AddMatter(sim.MatterSpec{ClientID: k.c, MatterID: k.m}); err != nil {
				w.t.Fatal(err)
			}
			w.start[k]++
			return
		}
	}
}

// arm is the fault of one step: storefault's injector on the step's own
// handle, failing its at-th write point with fault (at 0: counting only).
type arm struct {
	at    int
	fault storefault.Fault
	inj   *storefault.Injector
}

// handle is a new process's store: through the injector when armed.
func (w *world) handle(a *arm) *store.Store {
	if a == nil {
		return w.open()
	}
	a.inj = storefault.New()
	st, err := a.inj.Open(w.path)
	if err != nil {
		w.t.Fatal(err)
	}
	a.inj.FailAt(a.at, a.fault) // counted from here: opening migrated nothing
	return st
}

// ended reads a step's end: whether its process lived to return (a crash
// ends it, even when the job ran on and returned); the fault's point is
// added to the names a failure prints.
func ended(a *arm, f *faulty, returned bool) bool {
	if a == nil {
		return returned
	}
	if p, ok := a.inj.Fired(); ok {
		f.names = append(f.names, "fault at "+p.String())
	}
	return returned && !a.inj.Crashed()
}

func points(a *arm) int {
	if a == nil {
		return 0
	}
	return a.inj.Points()
}

func dead(a *arm) func() bool {
	if a == nil {
		return nil
	}
	return a.inj.Crashed
}

// deleteStep runs a deletion of the file as a process of its own (its
// store calls through f, its faults from a) and checks it; it returns the
// write points it made and its receipt.
func (w *world) deleteStep(what string, f *faulty, a *arm) (int, int64) {
	st := w.handle(a)
	defer st.Close()
	f.st = st
	plan := NewPlan(w.pairs, 0)
	plan.BatchSize = w.batch
	svc := &watched{c: w.c, st: st, f: f, line: w.line, bad: &w.bad, dead: dead(a), lose: w.loseDelete}
	w.loseDelete = 0
	before := w.records()
	var id int64
	var rep *Report
	var err error
	finished := ended(a, f, inProcess(func() {
		id, rep, err = Delete(context.Background(), Deps{Service: svc, Store: f, Profile: "p"}, Source{Name: "m.csv"}, plan, Watch{})
	}))
	after := w.records()
	deleted := map[pairKey]bool{}
	for k, r := range before {
		if r.live && !after[k].live {
			deleted[k] = true
		}
	}
	if f.rid != 0 {
		w.deletedBy[f.rid] = deleted
	}
	w.checkDelete(what, f, finished, id, rep, err, before, after, deleted)
	return points(a), f.rid
}

// restoreStep restores deletion rid as a process of its own (planning
// included) and checks it; it returns the write points it made.
func (w *world) restoreStep(what string, rid int64, f *faulty, a *arm) int {
	if rid == 0 {
		return 0 // the deletion never started its receipt: nothing to restore
	}
	st := w.handle(a)
	defer st.Close()
	f.st = st
	svc := &watched{c: w.c, st: st, f: f, line: w.line, undoes: w.deletedBy[rid], bad: &w.bad, dead: dead(a), lose: w.loseRestore}
	w.loseRestore = 0
	before := w.records()
	var plan *RestorePlan
	var id int64
	var rep *Report
	var err, perr error
	finished := ended(a, f, inProcess(func() {
		if plan, perr = PlanRestore(f, rid); perr != nil {
			return
		}
		plan.batchSize = w.batch
		id, rep, err = Restore(context.Background(), Deps{Service: svc, Store: f, Profile: "p"}, plan, Watch{})
	}))
	if perr != nil && finished {
		w.bad = append(w.bad, fmt.Sprintf("%s: the restore could not be planned: %v", what, perr))
	}
	faultFree := (a == nil || a.at == 0) && svc.lose == 0
	w.checkRestore(what, rid, f, finished, faultFree, id, rep, err, before, w.records())
	return points(a)
}

// walk runs one schedule and reports what it found; it returns how many
// write points the schedule's phase made (all of them, when fault-free).
func (wk *walker) walk(t *testing.T, s schedule) int {
	t.Helper()
	w := wk.world(t, s)
	defer func() {
		if w.checker != nil {
			w.checker.Close()
		}
	}()
	a, f := &arm{at: s.at, fault: s.fault}, &faulty{}
	n := 0
	switch s.phase {
	case "delete":
		var rid int64
		n, rid = w.deleteStep("the faulted deletion", f, a)
		w.colleague()
		if s.seed%2 == 0 {
			w.restoreStep("the restore after it", rid, &faulty{}, nil)
			w.deleteStep("the file re-run after the restore", &faulty{}, nil)
		} else {
			w.deleteStep("the file re-run", &faulty{}, nil)
			w.restoreStep("the restore after the re-run", rid, &faulty{}, nil)
		}
	case "restore":
		first := &faulty{}
		if s.seed%2 == 0 { // a deletion killed before its first answer was written: in-flight pairs to judge
			first.crash = "answer of request 1"
		}
		_, rid := w.deleteStep("the deletion", first, nil)
		w.colleague()
		n = w.restoreStep("the faulted restore", rid, f, a)
		w.restoreStep("the restore run again", rid, &faulty{}, nil)
	}
	// every receipt a step started, faulted or not, names who ran it: the
	// actor goes in with the receipt's one insert, never after (issue 45)
	if rs, err := w.reader().Receipts(); err == nil {
		me, _ := user.Current()
		for _, r := range rs {
			if me != nil && r.ActorOSUser != me.Username {
				w.bad = append(w.bad, fmt.Sprintf("receipt %d (%s) names local user %q, want %q", r.ID, r.Action, r.ActorOSUser, me.Username))
			}
		}
	}
	for _, b := range w.bad {
		failf(t, s, "%s (the faulted run's writes: %s)", b, strings.Join(f.names, "; "))
	}
	return n
}
