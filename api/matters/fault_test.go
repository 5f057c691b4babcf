package matters

// The fault-injection walk of a matter run (issue 25): every write a
// deletion and a restore make to their receipt is made to fail, once per
// schedule, with each fault a store meets (busy, full, I/O error) or the
// process stopping there (before the write, or right after it); then a new
// process carries on (a fresh store handle on the same file) as a person
// would: restore, re-run the file, restore again. A checker
// (fault_check_test.go) reads the simulator's client matters and the
// receipts after every step.
//
// The seam is the job's own persistence interface (Receipts), wrapped:
// the store-wide seam other jobs use had not landed when this was written,
// and the job can only ever see a write fail through this interface.

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
)

type fault int

const (
	faultBusy fault = iota
	faultFull
	faultIO
	faultCrashBefore // the process stops at the write, which is not made
	faultCrashAfter  // the write is made, then the process stops
	nFaults
)

var faultNames = [...]string{"busy", "disk-full", "io-error", "crash-before", "crash-after"}

// faultErrs are SQLite's own messages for the faults a write returns.
var faultErrs = [...]error{
	errors.New("database is locked (5) (SQLITE_BUSY)"),
	errors.New("database or disk is full (13) (SQLITE_FULL)"),
	errors.New("disk I/O error (10) (SQLITE_IOERR)"),
}

// faulty is Receipts with one write made to fail: the one hit matches
// (by its number, 1-based, and name). A crash ends the calling goroutine
// (runtime.Goexit), which is how the run's process stops there.
type faulty struct {
	st    Receipts // the real store
	hit   func(n int, name string) bool
	kind  fault
	n     int      // writes so far
	names []string // every write's name, in order
	rid   int64    // the receipt the run writes
	fired bool     // a write returned the fault: the run must not succeed
}

func (f *faulty) write(name string, do func() error) error {
	f.n++
	f.names = append(f.names, name)
	if f.hit == nil || !f.hit(f.n, name) {
		return do()
	}
	switch f.kind {
	case faultCrashBefore:
		runtime.Goexit()
	case faultCrashAfter:
		_ = do()
		runtime.Goexit()
	}
	f.fired = true
	return fmt.Errorf("the receipt could not be written: %w", faultErrs[f.kind])
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
	w.recordedFirst("a deletion", pairs)
	return w.c.DeleteMatters(ctx, pairs)
}

func (w *watched) UpsertMatters(ctx context.Context, pairs []api.MatterPair) (*api.MatterUpsert, error) {
	w.recordedFirst("a restore", pairs)
	for _, p := range pairs {
		if !w.undoes[key(p.ClientID, p.MatterID)] {
			*w.bad = append(*w.bad, fmt.Sprintf("a restore sent line %d (%s/%s), which the deletion it undoes did not delete",
				w.line[key(p.ClientID, p.MatterID)], p.ClientID, p.MatterID))
		}
	}
	return w.c.UpsertMatters(ctx, pairs)
}

func (w *watched) EachClientMatter(ctx context.Context, fn func(*api.ClientMatter) error) (api.ServiceClock, error) {
	return w.c.EachClientMatter(ctx, fn)
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
// "delete" or "restore", at its at-th write), and the fault.
type schedule struct {
	seed  int64
	phase string
	at    int
	kind  fault
}

func (s schedule) String() string {
	if s.at == 0 {
		return fmt.Sprintf("seed %d, %s without a fault", s.seed, s.phase)
	}
	return fmt.Sprintf("seed %d, %s, write %d, %s", s.seed, s.phase, s.at, faultNames[s.kind])
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
// at kind" (as a failure names it: "3 restore 4 crash-after") replays one.
func TestFaultWalkMatterRuns(t *testing.T) {
	want := scheduleCount(t)
	wk := newWalker(t)
	if only := os.Getenv("VAULTDECK_FAULT_ONLY"); only != "" {
		var s schedule
		var kind string
		if _, err := fmt.Sscan(only, &s.seed, &s.phase, &s.at, &kind); err != nil {
			t.Fatalf("VAULTDECK_FAULT_ONLY=%q: want \"seed phase at kind\": %v", only, err)
		}
		for s.kind = 0; s.kind < nFaults && faultNames[s.kind] != kind; s.kind++ {
		}
		wk.walk(t, s)
		return
	}
	ran, kinds := 0, map[string]int{}
	for seed := int64(1); ran < want; seed++ {
		// the fault-free runs of a world count its write points
		points := map[string]int{}
		for _, phase := range []string{"delete", "restore"} {
			points[phase] = wk.walk(t, schedule{seed: seed, phase: phase})
			ran++
		}
		for _, phase := range []string{"delete", "restore"} {
			for at := 1; at <= points[phase] && ran < want; at++ {
				for k := fault(0); k < nFaults && ran < want; k++ {
					wk.walk(t, schedule{seed: seed, phase: phase, at: at, kind: k})
					kinds[faultNames[k]]++
					ran++
				}
			}
		}
		if t.Failed() {
			break // one world's findings are enough to read
		}
	}
	t.Logf("%d schedules walked (faults: %v)", ran, kinds)
}

func failf(t *testing.T, s schedule, format string, args ...any) {
	t.Helper()
	t.Errorf("%s (replay: VAULTDECK_FAULT_ONLY=\"%d %s %d %s\"): %s", s, s.seed, s.phase, s.at, faultNames[s.kind],
		strings.TrimSpace(fmt.Sprintf(format, args...)))
}
