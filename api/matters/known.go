// This file says, before anything is sent, what a deletion would find for
// each pair: the service's own client-matter list, read once.

package matters

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Standing is what the service's list shows of a pair before a deletion.
type Standing uint8

// The standings, as a deletion would answer them: exists (deleted),
// already deleted and unknown (both already_absent), conflict
// (identity_conflict: the pair and the stored name name different matters,
// or several matters share the name).
const (
	StandingExists Standing = iota + 1
	StandingDeleted
	StandingUnknown
	StandingConflict
)

var standingNames = [...]string{"", "exists", "already_deleted", "unknown", "conflict"}

func (s Standing) String() string { return standingNames[s] }

// Standings lists them in the order a preview counts them.
func Standings() []Standing {
	return []Standing{StandingExists, StandingDeleted, StandingUnknown, StandingConflict}
}

// ErrNoMapping is a client-matter list that does not say which pair each
// record is. The public record has only the stored name, and how a v2 pair
// reaches a v1 name is not documented; only a service that states it (the
// simulator's name_delimiter, with client_id and matter_id) can be read.
var ErrNoMapping = errors.New("the service's client-matter list does not say which client/matter pair each record is")

// Known is the standing of every pair a plan sends, from one read of the
// listing: one byte a pair and the index of the record it matched, so a
// million-pair plan stays small.
type Known struct {
	plan      *Plan
	standing  []Standing // by position in plan.Send
	record    []int32    // the matched record (exists, deleted), else -1
	records   []knownRecord
	Listed    int    // records the list held
	Delimiter string // the mapping's delimiter, as the service stated it
	counts    [len(standingNames)]int
}

type knownRecord struct {
	name      string
	deletedAt time.Time
}

// PairStanding is one pair's standing for a report: its line, pair, and
// the record it matched.
type PairStanding struct {
	Line      int       `json:"line"`
	ClientID  string    `json:"client_id"`
	MatterID  string    `json:"matter_id"`
	Standing  string    `json:"standing"`
	Name      string    `json:"name,omitempty"`
	DeletedAt time.Time `json:"deleted_at,omitzero"`
}

// Count is how many pairs have standing s.
func (k *Known) Count(s Standing) int { return k.counts[s] }

// Len is the number of pairs known (the plan's pairs to send).
func (k *Known) Len() int { return len(k.standing) }

// At is the i-th pair to send with its standing.
func (k *Known) At(i int) PairStanding {
	pr := k.plan.Pairs[k.plan.Send[i]]
	ps := PairStanding{Line: pr.Line, ClientID: pr.ClientID, MatterID: pr.MatterID, Standing: k.standing[i].String()}
	if r := k.record[i]; r >= 0 {
		ps.Name, ps.DeletedAt = k.records[r].name, k.records[r].deletedAt
	}
	return ps
}

// Standing is the i-th pair's standing.
func (k *Known) Standing(i int) Standing { return k.standing[i] }

// Look reads the service's client-matter list once (GET
// /api/v1/client_matters, within the client-matters budget) and says for
// each pair the plan sends what a deletion would find, by the rule the
// deletion applies (spec rule 4): the records whose pair is the trimmed
// pair, and those whose stored name is client_id + delimiter + matter_id.
// None: unknown; more than one distinct record: conflict; one: exists, or
// already deleted. A list that does not state its mapping (ErrNoMapping),
// or states two delimiters, is refused rather than guessed at.
func Look(ctx context.Context, l Lister, plan *Plan) (*Known, error) {
	k := &Known{plan: plan, standing: make([]Standing, len(plan.Send)), record: make([]int32, len(plan.Send))}
	byPair := map[pairKey][]int32{}
	byName := map[string][]int32{}
	var delim *string
	_, err := l.ClientMatters().Each(ctx, func(m *api.ClientMatter, _ api.RawItem) error {
		if m.NameDelimiter == nil {
			return fmt.Errorf("%w (record %s has no name_delimiter): how a v1 name maps to a v2 pair is not documented, so vaultdeck reads only a service that states it, as the simulator does", ErrNoMapping, m.ID)
		}
		if delim == nil {
			delim = m.NameDelimiter
		} else if *delim != *m.NameDelimiter {
			return fmt.Errorf("%w: its records state two delimiters (%q and %q)", ErrNoMapping, *delim, *m.NameDelimiter)
		}
		i := int32(len(k.records))
		at := m.DeletedAt.Time
		if m.Deleted() && at.IsZero() {
			at = time.Unix(0, 0).UTC() // deleted at a time that cannot be read: still deleted
		}
		k.records = append(k.records, knownRecord{name: m.Name, deletedAt: at})
		if c, mid := strings.TrimSpace(m.ClientID), strings.TrimSpace(m.MatterID); c != "" && mid != "" {
			byPair[pairKey{c, mid}] = append(byPair[pairKey{c, mid}], i)
		}
		byName[m.Name] = append(byName[m.Name], i)
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	k.Listed = len(k.records)
	if delim != nil {
		k.Delimiter = *delim
	}
	for i, idx := range plan.Send {
		key := trimmed(plan.Pairs[idx])
		found := append([]int32(nil), byPair[key]...)
		if delim != nil {
			for _, r := range byName[key.c+*delim+key.m] {
				if !contains(found, r) {
					found = append(found, r)
				}
			}
		}
		s, rec := StandingUnknown, int32(-1)
		switch {
		case len(found) > 1:
			s = StandingConflict
		case len(found) == 1:
			rec = found[0]
			s = StandingExists
			if !k.records[rec].deletedAt.IsZero() {
				s = StandingDeleted
			}
		}
		k.standing[i], k.record[i] = s, rec
		k.counts[s]++
	}
	return k, nil
}

func contains(s []int32, v int32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
