package filestatus

import (
	"time"
)

// maxIDsPerCall is the service's limit on file_ids per get_files request.
const maxIDsPerCall = 1000

// Defaults for Options; see there.
const (
	DefaultBaseInterval = 10 * time.Second
	DefaultStuckAfter   = 30 * time.Minute
	defaultVaultLimit   = 10
	maxBackoff          = 5 * time.Minute
)

// budget mirrors the client's view of one rate-limit category. The scheduler
// takes it as plain numbers so its rules are testable without a client.
type budget struct {
	Limit, Remaining int
	ResetIn          time.Duration
}

// plan is the scheduler's decision for the next poll.
type plan struct {
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
func planPoll(pending int, b budget, base time.Duration, failures int, retryAfter time.Duration) plan {
	if pending <= 0 {
		return plan{Reason: "all files settled"}
	}
	if base <= 0 {
		base = DefaultBaseInterval
	}
	limit := b.Limit
	if limit <= 0 {
		limit = defaultVaultLimit
	}
	half := max(1, limit/2)
	needed := (pending + maxIDsPerCall - 1) / maxIDsPerCall
	calls := min(needed, half, b.Remaining-reserve(limit))

	p := plan{Calls: calls, Wait: base, Reason: "base interval"}
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
func quietBackoff(p plan, quiet int, base time.Duration) plan {
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
func manualCalls(ids int, b budget) int {
	limit := b.Limit
	if limit <= 0 {
		limit = defaultVaultLimit
	}
	needed := (ids + maxIDsPerCall - 1) / maxIDsPerCall
	return max(0, min(needed, max(1, limit/2), b.Remaining))
}
