package filestatus

// When to ask again: the poll planner within the vault Budget, and the
// one cadence rule of the console's File status and `status --watch`.

import (
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Defaults of the console's Options and of the CLI's flags.
const (
	DefaultBaseInterval = 10 * time.Second
	DefaultStuckAfter   = 30 * time.Minute
	defaultVaultLimit   = 10
	maxBackoff          = 5 * time.Minute
)

// Budget mirrors the client's view of one rate-limit category. The scheduler
// takes it as plain numbers so its rules are testable without a client.
type Budget struct {
	Limit, Remaining int
	ResetIn          time.Duration
}

// BudgetOf reads the client's budget status in the scheduler's terms.
func BudgetOf(s api.BudgetStatus) Budget {
	if s.Unlimited {
		// No client-side limit (simulator without limits): plan as if a
		// generous budget were full, so the base interval applies.
		return Budget{Limit: 1 << 20, Remaining: 1 << 20}
	}
	return Budget{Limit: s.Limit, Remaining: s.Remaining, ResetIn: s.ResetIn}
}

// Low reports whether the budget is down to the reserve the automatic poll
// never takes (a warning for the user: only a refresh may spend it now).
func (b Budget) Low() bool {
	limit := b.Limit
	if limit <= 0 {
		limit = defaultVaultLimit
	}
	return b.Remaining <= reserve(limit)
}

// Plan is the scheduler's decision for the next poll.
type Plan struct {
	Calls  int           // get_files requests the poll may make (each ≤1000 IDs); 0 = do not poll now
	Wait   time.Duration // delay before the next poll
	Reason string        // shown next to the interval so the user knows why it is long
}

// reserve is the part of each minute's vault budget the poller never takes:
// the vault limit (10/min) is shared with every other view, and a user who
// opens a project while files are being watched must not meet a 429.
func reserve(limit int) int { return max(1, limit/5) }

// planPoll decides how many requests the next poll may make and how long to
// wait after it. pending is the number of IDs still worth polling; failures
// counts consecutive failed polls (for backoff); retryAfter is the server's
// Retry-After from the last failure, if any.
//
// The rules: a poll needs ceil(pending/1000) requests, but takes at most half
// a minute's budget and never the reserve; the interval is at least base and
// long enough that polling alone spends at most half of the vault budget per
// minute; when the remaining budget cannot pay for even one request, the
// poll waits for the window to reset instead of provoking a 429.
func planPoll(pending int, b Budget, base time.Duration, failures int, retryAfter time.Duration) Plan {
	if pending <= 0 {
		return Plan{Reason: "all files settled"}
	}
	if base <= 0 {
		base = DefaultBaseInterval
	}
	limit := b.Limit
	if limit <= 0 {
		limit = defaultVaultLimit
	}
	half := max(1, limit/2)
	needed := (pending + api.MaxFileIDs - 1) / api.MaxFileIDs
	calls := min(needed, half, b.Remaining-reserve(limit))

	p := Plan{Calls: calls, Wait: base, Reason: "base interval"}
	if calls <= 0 {
		// Budget low: spend nothing now; the next attempt comes when the
		// window resets, and plans with the fresh budget then.
		p.Calls = 0
		p.Wait = max(b.ResetIn, time.Second)
		p.Reason = "budget low, waiting for reset"
	} else if share := time.Duration(calls) * time.Minute / time.Duration(half); share > p.Wait {
		p.Wait = share
		p.Reason = "half of vault budget"
	}
	if failures > 0 {
		backoff := base << min(failures, 10)
		backoff = min(backoff, maxBackoff)
		if retryAfter > backoff {
			backoff = retryAfter
		}
		if backoff > p.Wait {
			p.Wait = backoff
			p.Reason = "backing off after error"
		}
	}
	return p
}

// maxQuietWait caps the pause while polls keep finding nothing new.
const maxQuietWait = 2 * time.Minute

// quietBackoff lengthens the pause after quiet polls in a row that changed
// nothing: base doubled per quiet poll, up to maxQuietWait, never shorter
// than p asked. Files stuck for hours do not need a poll every 10 seconds
// from a budget of 10 a minute the whole organisation shares.
func quietBackoff(p Plan, quiet int, base time.Duration) Plan {
	if quiet <= 0 || p.Calls == 0 {
		return p
	}
	if base <= 0 {
		base = DefaultBaseInterval
	}
	if w := min(base<<min(quiet, 10), maxQuietWait); w > p.Wait {
		p.Wait, p.Reason = w, "nothing changed, backing off"
	}
	return p
}

// manualCalls is how many requests a user-requested refresh may make: unlike
// the automatic poll it may use the reserve (the refresh is the user's own
// action), but never more than remains or half a minute's budget.
func manualCalls(ids int, b Budget) int {
	limit := b.Limit
	if limit <= 0 {
		limit = defaultVaultLimit
	}
	needed := (ids + api.MaxFileIDs - 1) / api.MaxFileIDs
	return max(0, min(needed, max(1, limit/2), b.Remaining))
}

// Cadence is the one rule for when to ask again and how many requests a
// poll may make; the console's File status and `status --watch` both
// follow it, each with its Base.
type Cadence struct {
	// Base is the shortest pause between polls; 0 means
	// DefaultBaseInterval.
	Base time.Duration
	// Alone says the poller is the only thing its process spends the
	// budget on (`status --watch`: a headless run with no views beside it).
	// Each poll then asks about every pending file, and the client's own
	// limiter waits for budget between the requests, so the planner neither
	// caps the calls nor stretches the pause to half a minute's budget. The
	// console shares the budget with every view open beside it and leaves
	// them room (planPoll's half share and reserve). Either way, quiet polls
	// lengthen the pause the same way (quietBackoff).
	Alone bool
}

// Next plans the poll after one: pending files still worth asking about,
// the budget now, failures in a row and the server's Retry-After, and
// quiet polls in a row that changed nothing.
func (c Cadence) Next(pending int, b Budget, failures int, retryAfter time.Duration, quiet int) Plan {
	base := c.Base
	if base <= 0 {
		base = DefaultBaseInterval
	}
	if !c.Alone {
		return quietBackoff(planPoll(pending, b, base, failures, retryAfter), quiet, base)
	}
	if pending <= 0 {
		return Plan{Reason: "all files settled"}
	}
	p := Plan{Calls: (pending + api.MaxFileIDs - 1) / api.MaxFileIDs, Wait: base, Reason: "base interval"}
	return quietBackoff(p, quiet, base)
}

// Manual is how many requests a refresh the user asked for may make about
// ids files (manualCalls).
func (c Cadence) Manual(ids int, b Budget) int { return manualCalls(ids, b) }
