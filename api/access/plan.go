package access

import (
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// Plan decides what a crawl does with each listed project, given what the
// snapshot being built already holds (current) and the last finished
// snapshot (last). Rules, in order:
//
//  1. A project already read or carried in current with the same non-empty
//     updated time is kept as is: a resumed crawl never reads it again.
//  2. Otherwise, a project whose updated time equals its time in last is
//     carried over: sharing changes move project_updated_at, so its users
//     are last's.
//  3. Otherwise it is pending (new, changed, or the service sent no time,
//     which can prove nothing): its users are read.
//  4. A project of current that is no longer listed is dropped (deleted or
//     no longer visible: a diff shows its grants as lost).
//
// A project listed twice (pages shifting while they were read) counts once.
func Plan(listed, current, last []store.AccessProject) (pending, carry []store.AccessProject, drop []string) {
	cur := index(current)
	prev := index(last)
	seen := make(map[string]bool, len(listed))
	for _, p := range listed {
		if seen[p.ID] {
			continue
		}
		seen[p.ID] = true
		if c, ok := cur[p.ID]; ok && c.State != store.AccessPending && same(c.UpdatedAt, p.UpdatedAt) {
			continue
		}
		if l, ok := prev[p.ID]; ok && same(l.UpdatedAt, p.UpdatedAt) {
			p.State = store.AccessCarried
			carry = append(carry, p)
			continue
		}
		p.State = store.AccessPending
		pending = append(pending, p)
	}
	for _, c := range current {
		if !seen[c.ID] {
			drop = append(drop, c.ID)
		}
	}
	return pending, carry, drop
}

func same(a, b string) bool { return a != "" && a == b }

func index(ps []store.AccessProject) map[string]store.AccessProject {
	m := make(map[string]store.AccessProject, len(ps))
	for _, p := range ps {
		m[p.ID] = p
	}
	return m
}

// updatedKey normalises a project_updated_at for comparison: the instant in
// UTC when the service's value parsed, else its raw text, else "" (never
// equal to anything).
func updatedKey(t api.Time) string {
	if !t.Time.IsZero() {
		return t.Time.UTC().Format(time.RFC3339Nano)
	}
	return t.Raw
}

// ETA estimates how long the remaining project reads take. The budget
// bounds it from below: requests beyond what the vault budget has left now
// wait for the window, limit a minute. Once a few reads were made this run,
// the observed pace (which includes the service's latency and other
// sessions drawing on the same budget) is used when it is slower.
func ETA(remaining int, b api.BudgetStatus, readThisRun int, elapsed time.Duration) time.Duration {
	if remaining <= 0 {
		return 0
	}
	var est time.Duration
	if !b.Unlimited && b.Limit > 0 {
		if over := remaining - b.Remaining; over > 0 {
			est = time.Duration(over) * time.Minute / time.Duration(b.Limit)
		}
	}
	if readThisRun >= 5 && elapsed > 0 {
		if pace := elapsed / time.Duration(readThisRun) * time.Duration(remaining); pace > est {
			est = pace
		}
	}
	return est
}
