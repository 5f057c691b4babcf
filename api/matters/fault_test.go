package matters

// The fault-injection walk of a matter run (issue 25): every write a
// deletion and a restore make to the store is made to fail, once per
// schedule, with each fault of store/storefault (busy, locked, disk full,
// I/O error, the process stopping before the write or right after its
// COMMIT); then a new process carries on (a fresh store handle on the same
// file) as a person would: restore, re-run the file, restore again. A
// checker (fault_check_test.go) reads the simulator's client matters and
// the receipts after every step.
//
// The write points are storefault's: the BEGIN, each changing statement
// and the COMMIT of every transaction the job's receipt writes make.
// faulty below only follows the job's persistence calls (which receipt a
// run writes, their names for a failure's message), and, for a setup,
// stops a run at one named call.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// faulty is Receipts as a run calls it: it keeps the receipt the run
// writes and the names of its writes, and stops the run (runtime.Goexit:
// its process ends there) at the write crash names, if any.
type faulty struct {
	st    Receipts // the real store
	crash string   // the write to stop at
	after bool     // stop right after it is made, not before
	names []string // every write's name, in order
	rid   int64    // the receipt the run writes
	// fired: a write returned an error to the run (a fault the store did
	// not absorb; a busy it waited out is none): it must not succeed.
	fired bool
}

func (f *faulty) write(name string, do func() error) error {
	f.names = append(f.names, name)
	if f.crash == "" || name != f.crash {
		err := do()
		f.fired = f.fired || err != nil
		return err
	}
	if f.after {
		_ = do()
	}
	runtime.Goexit()
	return nil
}

func (f *faulty) StartReceipt(r store.Receipt) (int64, error) {
	var id int64
	err := f.write("start "+r.Action, func() error {
		var err error
		if id, err = f.st.StartReceipt(r); err == nil {
			f.rid = id
		}
		return err
	})
	return id, err
}

func (f *faulty) AddReceiptItems(id int64, items []store.ReceiptItem) error {
	if len(items) == 0 { // the store writes nothing: not a write point
		return f.st.AddReceiptItems(id, items)
	}
	name := fmt.Sprintf("answer of request %d", items[0].Request)
	switch {
	case items[0].Result == string(ResultInFlight):
		name = fmt.Sprintf("in_flight of request %d", items[0].Request)
	case items[0].Request == 0:
		name = "outcomes settled before sending"
	}
	return f.write(name, func() error { return f.st.AddReceiptItems(id, items) })
}

func (f *faulty) FinishReceipt(id int64, status, note string, unsent []store.ReceiptItem) error {
	return f.write("finish "+status, func() error { return f.st.FinishReceipt(id, status, note, unsent) })
}

// The reads go straight through: only writes are walked.
func (f *faulty) Check() error                            { return f.st.Check() }
func (f *faulty) Unchanged() error                        { return f.st.Unchanged() }
func (f *faulty) Receipts() ([]store.Receipt, error)      { return f.st.Receipts() }
func (f *faulty) Receipt(id int64) (store.Receipt, error) { return f.st.Receipt(id) }
func (f *faulty) ReceiptItems(id int64, result string, fn func(store.ReceiptItem) error) error {
	return f.st.ReceiptItems(id, result, fn)
}

var _ Receipts = (*faulty)(nil)

// watched is the service as the checker sees it: before each request it
// checks that every pair sent is on the run's receipt in flight (never
// send what was not recorded), and that a restore upserts only pairs the
// deletion it undoes deleted.
type watched struct {
	c      *api.Client
	st     Receipts // the run's store handle, read between its writes
	f      *faulty
	line   map[pairKey]int
	undoes map[pairKey]bool // nil outside a restore
	bad    *[]string
	// dead says the run's process has crashed (storefault): a dead
	// process sends nothing, so the run's goroutine ends at its next
	// request.
	dead func() bool
	// lose is the request (1-based) whose answer is lost: the service acts,
	// the client hears a reset connection. 0: none.
	lose, calls int
}

// lost forwards a request and, when it is the one to lose, drops its answer.
func (w *watched) lost() bool {
	w.calls++
	return w.calls == w.lose
}

var errLost = errors.New("read: connection reset by peer (injected: the service acted, its answer was lost)")

func (w *watched) alive() {
	if w.dead != nil && w.dead() {
		runtime.Goexit()
	}
}

func (w *watched) recordedFirst(what string, pairs []api.MatterPair) {
	inFlight := map[int]bool{}
	err := w.st.ReceiptItems(w.f.rid, string(ResultInFlight), func(it store.ReceiptItem) error {
		inFlight[it.Line] = true
		return nil
	})
	if err != nil {
		*w.bad = append(*w.bad, fmt.Sprintf("%s: the receipt could not be read before sending: %v", what, err))
	}
	for _, p := range pairs {
		if l := w.line[key(p.ClientID, p.MatterID)]; w.f.rid == 0 || !inFlight[l] {
			*w.bad = append(*w.bad, fmt.Sprintf("%s sent line %d (%s/%s), which receipt %d did not hold in flight", what, l, p.ClientID, p.MatterID, w.f.rid))
		}
	}
}

func (w *watched) DeleteMatters(ctx context.Context, pairs []api.MatterPair) (*api.MatterDeletion, error) {
	w.alive()
	w.recordedFirst("a deletion", pairs)
	res, err := w.c.DeleteMatters(ctx, pairs)
	if w.lost() {
		return nil, errLost
	}
	return res, err
}

func (w *watched) UpsertMatters(ctx context.Context, pairs []api.MatterPair) (*api.MatterUpsert, error) {
	w.alive()
	w.recordedFirst("a restore", pairs)
	for _, p := range pairs {
		if !w.undoes[key(p.ClientID, p.MatterID)] {
			*w.bad = append(*w.bad, fmt.Sprintf("a restore sent line %d (%s/%s), which the deletion it undoes did not delete",
				w.line[key(p.ClientID, p.MatterID)], p.ClientID, p.MatterID))
		}
	}
	res, err := w.c.UpsertMatters(ctx, pairs)
	if w.lost() {
		return nil, errLost
	}
	return res, err
}

func (w *watched) ClientMatters() api.Listing[api.ClientMatter] {
	w.alive()
	return w.c.ClientMatters()
}

// inProcess runs fn as a process of its own would: a crash (Goexit) ends
// it there. It reports whether fn returned.
func inProcess(fn func()) (finished bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
		finished = true
	}()
	<-done
	return finished
}

// schedule is one walk: a world (seed), the run whose write fails (phase
// "delete" or "restore", at its at-th write point), and the fault.
type schedule struct {
	seed  int64
	phase string
	at    int
	fault storefault.Fault
}

func (s schedule) String() string {
	if s.at == 0 {
		return fmt.Sprintf("seed %d, %s without a fault", s.seed, s.phase)
	}
	return fmt.Sprintf("seed %d, %s, write %d, %s", s.seed, s.phase, s.at, s.fault)
}

// defaultSchedules is how many schedules CI walks; VAULTDECK_FAULT_SCHEDULES
// asks for more (or fewer).
const defaultSchedules = 300

func scheduleCount(t *testing.T) int {
	v := os.Getenv("VAULTDECK_FAULT_SCHEDULES")
	if v == "" {
		return defaultSchedules
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("VAULTDECK_FAULT_SCHEDULES=%q is not a positive number", v)
	}
	return n
}

// TestFaultWalkMatterRuns walks every write point of a deletion and of a
// restore with every fault, world after world (each seed its own file and
// workspace), until the count is reached. VAULTDECK_FAULT_ONLY="seed phase
// at fault" (as a failure names it: "3 restore 4 crash") replays one.
func TestFaultWalkMatterRuns(t *testing.T) {
	want := scheduleCount(t)
	wk := newWalker(t)
	if only := os.Getenv("VAULTDECK_FAULT_ONLY"); only != "" {
		var s schedule
		var name string
		if _, err := fmt.Sscan(only, &s.seed, &s.phase, &s.at, &name); err != nil {
			t.Fatalf("VAULTDECK_FAULT_ONLY=%q: want \"seed phase at fault\": %v", only, err)
		}
		for _, f := range storefault.Faults {
			if f.String() == name {
				s.fault = f
			}
		}
		wk.walk(t, s)
		return
	}
	ran, faults := 0, map[string]int{}
	for seed := int64(1); ran < want; seed++ {
		// the fault-free runs of a world count its write points
		points := map[string]int{}
		for _, phase := range []string{"delete", "restore"} {
			points[phase] = wk.walk(t, schedule{seed: seed, phase: phase})
			ran++
		}
		for _, phase := range []string{"delete", "restore"} {
			for at := 1; at <= points[phase] && ran < want; at++ {
				for _, f := range storefault.Faults {
					if ran == want {
						break
					}
					wk.walk(t, schedule{seed: seed, phase: phase, at: at, fault: f})
					faults[f.String()]++
					ran++
				}
			}
		}
		if t.Failed() {
			break // one world's findings are enough to read
		}
	}
	t.Logf("%d schedules walked (faults: %v)", ran, faults)
}

func failf(t *testing.T, s schedule, format string, args ...any) {
	t.Helper()
	t.Errorf("%s (replay: VAULTDECK_FAULT_ONLY=\"%d %s %d %s\"): %s", s, s.seed, s.phase, s.at, s.fault,
		strings.TrimSpace(fmt.Sprintf(format, args...)))
}
