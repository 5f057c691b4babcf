package matters

import (
	"fmt"
	"hash/maphash"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// The spec's per-pair error codes, plus the ones this client adds for pairs
// the service never answered for.
const (
	CodeInvalidClientID = "invalid_client_id"
	CodeInvalidMatterID = "invalid_matter_id"
	CodeDuplicatePair   = "duplicate_pair"
	CodeIdentity        = "identity_conflict"
	CodeNameCollision   = "name_collision"
	CodeBlocked         = "blocked_by_ethical_wall"
	// CodeMissing: the 200 response did not list the pair (rule 1 broken).
	CodeMissing = "missing_from_response"
	// CodeUnknown: the request failed in a way that leaves its effect
	// unknown (no response, a 5xx): a restore checks it against the listing.
	CodeUnknown = "outcome_unknown"
)

// verdict is the client's own reading of a pair, kept as a byte per pair so
// a million-pair plan stays small.
type verdict uint8

const (
	send verdict = iota
	badClient
	badMatter
	duplicate
)

var verdictCode = [...]string{"", CodeInvalidClientID, CodeInvalidMatterID, CodeDuplicatePair}

// Plan is the preview of a deletion: which pairs go out, in how many
// requests, which are refused before sending and why.
type Plan struct {
	Pairs    []Pair
	verdicts []verdict
	firstOf  map[int32]int32 // duplicate index -> index of the pair it repeats
	// Send holds the indexes (into Pairs) of the pairs that will be sent, in
	// input order; request k carries Send[k*BatchSize : (k+1)*BatchSize].
	Send      []int32
	BatchSize int
	// PerMinute is the rate limit the minimum time is computed from.
	PerMinute int
}

// pairKey is a trimmed pair. Two strings, not one joined string, so no
// separator can make two different pairs collide and no key is allocated.
type pairKey struct{ c, m string }

// dedup finds repeats among a million pairs cheaply: a map from a 64-bit
// hash of the trimmed pair to its first index (12 bytes an entry, a third
// of a map keyed by the two strings), confirmed by comparing the strings.
// Two different pairs with the same hash are rare; the later one goes to
// an exact map, so a collision can never make a pair a false duplicate.
type dedup struct {
	seed   maphash.Seed
	byHash map[uint64]int32
	exact  map[pairKey]int32
}

func newDedup(n int) *dedup {
	return &dedup{seed: maphash.MakeSeed(), byHash: make(map[uint64]int32, n)}
}

func trimmed(p Pair) pairKey {
	return pairKey{strings.TrimSpace(p.ClientID), strings.TrimSpace(p.MatterID)}
}

func (d *dedup) sum(k pairKey) uint64 {
	var h maphash.Hash
	h.SetSeed(d.seed)
	h.WriteString(k.c)
	h.WriteByte(0)
	h.WriteString(k.m)
	return h.Sum64()
}

// add records k as pair i, or returns the index of the pair it repeats.
func (d *dedup) add(k pairKey, i int32, pairs []Pair) (int32, bool) {
	sum := d.sum(k)
	first, ok := d.byHash[sum]
	if !ok {
		d.byHash[sum] = i
		return 0, false
	}
	if trimmed(pairs[first]) == k {
		return first, true
	}
	if d.exact == nil {
		d.exact = map[pairKey]int32{}
	}
	if f, ok := d.exact[k]; ok {
		return f, true
	}
	d.exact[k] = i
	return 0, false
}

// NewPlan checks every pair as the service would (rules 3, 8, 10) and
// across the whole file, not only within one request: a repeat that would
// land in a later request is reported as duplicate_pair and not sent (the
// service, seeing requests separately, would call it already_absent).
// perMinute <= 0 takes the service's default of 150.
func NewPlan(pairs []Pair, perMinute int) *Plan {
	if perMinute <= 0 {
		perMinute = api.DefaultMattersLimit
	}
	p := &Plan{Pairs: pairs, verdicts: make([]verdict, len(pairs)), firstOf: map[int32]int32{},
		BatchSize: api.MaxPairs, PerMinute: perMinute, Send: make([]int32, 0, len(pairs))}
	seen := newDedup(len(pairs))
	for i, pr := range pairs {
		k := pairKey{strings.TrimSpace(pr.ClientID), strings.TrimSpace(pr.MatterID)}
		switch {
		case k.c == "":
			p.verdicts[i] = badClient
		case k.m == "":
			p.verdicts[i] = badMatter
		default:
			if first, dup := seen.add(k, int32(i), pairs); dup {
				p.verdicts[i] = duplicate
				p.firstOf[int32(i)] = first
				continue
			}
			p.Send = append(p.Send, int32(i))
		}
	}
	return p
}

// Requests is the number of requests the plan sends.
func (p *Plan) Requests() int { return (len(p.Send) + p.BatchSize - 1) / p.BatchSize }

// Batch returns the indexes of request k (zero-based).
func (p *Plan) Batch(k int) []int32 {
	return p.Send[k*p.BatchSize : min((k+1)*p.BatchSize, len(p.Send))]
}

// MinDuration is the least time the rate limit allows for the requests:
// the first PerMinute go at once, each further PerMinute a minute later.
// Other users of the same token share the budget, so it can take longer.
func (p *Plan) MinDuration() time.Duration {
	n := p.Requests()
	if n == 0 {
		return 0
	}
	return time.Duration((n-1)/p.PerMinute) * time.Minute
}

// Rejected returns, in input order, the outcomes of the pairs refused
// before sending.
func (p *Plan) Rejected() []Outcome {
	var out []Outcome
	for i, v := range p.verdicts {
		if v != send {
			out = append(out, p.rejected(i))
		}
	}
	return out
}

// RejectedCount is len(Rejected()) without building it.
func (p *Plan) RejectedCount() int { return len(p.Pairs) - len(p.Send) }

// CodeCounts counts the refused pairs by code.
func (p *Plan) CodeCounts() map[string]int {
	out := map[string]int{}
	for _, v := range p.verdicts {
		if v != send {
			out[verdictCode[v]]++
		}
	}
	return out
}

func (p *Plan) rejected(i int) Outcome {
	pr := p.Pairs[i]
	o := Outcome{Line: pr.Line, ClientID: pr.ClientID, MatterID: pr.MatterID, Result: ResultError,
		Code: verdictCode[p.verdicts[i]]}
	switch p.verdicts[i] {
	case badClient:
		o.Detail = "client_id is empty after trimming whitespace; not sent"
	case badMatter:
		o.Detail = "matter_id is empty after trimming whitespace; not sent"
	case duplicate:
		o.Detail = fmt.Sprintf("repeats the pair on line %d after trimming; not sent (that line is processed)", p.Pairs[p.firstOf[int32(i)]].Line)
	}
	return o
}
