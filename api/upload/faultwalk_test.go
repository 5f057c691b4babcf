package upload

// The fault walk (issue 25): every write point of an upload, with every
// fault of store/storefault, then a resume by a new process, and a checker
// of the simulator's project and the journal. See faultcheck_test.go for
// the process, the guard and the checker.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// schedule is one walk: a fault at one write point of one store of the
// process, in the run or in the resume that follows an interrupted run.
type schedule struct {
	target string // "journal" or "ledger": which of the process's two Stores
	phase  string // "run": the upload itself; "resume": the resume after a run cut at cut
	point  int
	fault  storefault.Fault
	cut    int // resume phase: the run crashed at this journal write point
	mode   api.DuplicateMode
	// lostListing: in the resume, every listing of the project's files is
	// lost, so each begun batch's reconciliation fails and its lease is
	// given back (a write point of its own).
	lostListing bool
}

func (s schedule) String() string {
	if s.phase == "resume" {
		lost := ""
		if s.lostListing {
			lost = ", every listing lost"
		}
		return fmt.Sprintf("%s fault %v at %s write %d of the resume after a crash at journal write %d (mode %s%s)", s.target, s.fault, s.target, s.point, s.cut, s.mode, lost)
	}
	return fmt.Sprintf("%s fault %v at %s write %d of the run (mode %s)", s.target, s.fault, s.target, s.point, s.mode)
}

// faultSchedules is how many schedules to walk: VAULTDECK_FAULT_SCHEDULES,
// else every single fault at every write point of the run, of both stores
// (a few hundred, seconds in CI). Beyond that many, schedules are drawn
// from VAULTDECK_FAULT_SEED (default 1): faults in a resume after a crash
// at a random point, in any mode.
func faultSchedules(t *testing.T, counts map[string]int, resumeCounts func(cut int) map[string]int) []schedule {
	var out []schedule
	for _, target := range []string{"journal", "ledger"} {
		for p := 1; p <= counts[target]; p++ {
			for _, f := range storefault.Faults {
				out = append(out, schedule{target: target, phase: "run", point: p, fault: f, mode: api.DuplicateKeep})
			}
		}
	}
	want := len(out)
	if v := os.Getenv("VAULTDECK_FAULT_SCHEDULES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("VAULTDECK_FAULT_SCHEDULES=%q: want a number of schedules", v)
		}
		want = n
	}
	seed := uint64(1)
	if v := os.Getenv("VAULTDECK_FAULT_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("VAULTDECK_FAULT_SEED=%q: want a number", v)
		}
		seed = n
	}
	rng := rand.New(rand.NewPCG(seed, 25))
	modes := []api.DuplicateMode{api.DuplicateKeep, api.DuplicateSkip, api.DuplicateReplace}
	cuts := map[int]map[string]int{}
	for len(out) < want {
		cut := 1 + rng.IntN(counts["journal"])
		if cuts[cut] == nil {
			cuts[cut] = resumeCounts(cut)
		}
		target := []string{"journal", "ledger"}[rng.IntN(2)]
		n := cuts[cut][target]
		if n == 0 {
			continue
		}
		out = append(out, schedule{target: target, phase: "resume", point: 1 + rng.IntN(n), cut: cut,
			fault: storefault.Faults[rng.IntN(len(storefault.Faults))], mode: modes[rng.IntN(len(modes))]})
	}
	return out[:want]
}

// TestFaultWalkOfAnUpload walks the schedules; each must leave every file
// exactly once on the service or named as not done, an outcome that says
// "all done" only when all is, and no request whose files were not
// recorded as started.
func TestFaultWalkOfAnUpload(t *testing.T) {
	w := newFaultWorld(t, 6, 2) // 6 files, 3 batches
	counts := w.count(schedule{phase: "run", mode: api.DuplicateKeep})
	t.Logf("write points of a clean run: journal %d, ledger %d", counts["journal"], counts["ledger"])
	if counts["journal"] < 10 {
		t.Fatalf("a run of 3 batches made %d journal writes: the walk would not reach them", counts["journal"])
	}
	resumeCounts := func(cut int) map[string]int {
		return w.count(schedule{phase: "resume", cut: cut, mode: api.DuplicateKeep})
	}
	scheds := faultSchedules(t, counts, resumeCounts)
	failed := 0
	for _, s := range scheds {
		if problems := w.walk(s); len(problems) > 0 {
			failed++
			if failed <= 20 || os.Getenv("VAULTDECK_FAULT_VERBOSE") != "" {
				t.Errorf("%v:\n\t%s", s, joinLines(problems))
			}
		}
	}
	resumes := 0
	for _, s := range scheds {
		if s.phase == "resume" {
			resumes++
		}
	}
	t.Logf("%d schedules walked (%d with the fault in a resume after a crash), the fault struck in %d, %d failed", len(scheds), resumes, w.struck, failed)
	if w.struck < len(scheds)*9/10 {
		t.Errorf("the fault struck in %d of %d schedules: the walk does not reach the write points it names", w.struck, len(scheds))
	}
}

func joinLines(s []string) string {
	out := ""
	for i, l := range s {
		if i > 0 {
			out += "\n\t"
		}
		out += l
	}
	return out
}

// TestFaultWalkOfResumesThatCannotReconcile walks every journal write point
// of a resume whose listings are lost (so each begun batch's reconciliation
// fails and its lease is given back), after a crash at each write point of
// the run, with a disk full or an I/O error. A lease that could not be
// given back was a journal error swallowed: the resume went on to send the
// next batch.
func TestFaultWalkOfResumesThatCannotReconcile(t *testing.T) {
	w := newFaultWorld(t, 6, 2)
	cuts := w.count(schedule{phase: "run", mode: api.DuplicateKeep})["journal"]
	// CI walks every 8th cut with one of the two faults a point; with
	// VAULTDECK_FAULT_SCHEDULES set, every cut with both.
	step, faults := 8, 1
	if os.Getenv("VAULTDECK_FAULT_SCHEDULES") != "" {
		step, faults = 1, 2
	}
	walked, failed := 0, 0
	for cut := 1; cut <= cuts; cut += step {
		base := schedule{target: "journal", phase: "resume", cut: cut, mode: api.DuplicateKeep, lostListing: true}
		for p := 1; p <= w.count(base)["journal"]; p++ {
			for k := range faults {
				f := []storefault.Fault{storefault.DiskFull, storefault.IOError}[(p+k)%2]
				s := base
				s.point, s.fault = p, f
				walked++
				if problems := w.walk(s); len(problems) > 0 {
					if failed++; failed <= 10 {
						t.Errorf("%v:\n\t%s", s, joinLines(problems))
					}
				}
			}
		}
	}
	t.Logf("%d schedules walked, %d failed", walked, failed)
}
