package audit

import (
	"context"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// Polled is one look for entries newer than the newest a reader holds.
type Polled struct {
	Entries []store.AuditEntry // every entry after the one asked from, oldest first
	// CaughtUp: the page was short and held nothing but the reader's own
	// reads (or nothing): the log has no news, only the trace of looking.
	// A follower that took its own reads for news would never slow down.
	CaughtUp bool
	Full     bool // a whole page: more are waiting
	// Last is where the next look starts: the last entry listed, which
	// with a type asked may be of another type (the listing's filter is
	// not documented, so such entries are dropped here, not shown).
	Last string
}

// Poll reads one page after the entry with id after, for a follower
// (the console's F). self is the token's user (whoami), whose
// api:audit_log_fetch entries are recognised; they are still returned,
// since the trail shown is the whole trail. logType, when set, is sent
// as log_type (the guide lists it on every audit endpoint) and kept
// locally as well.
func (j *Job) Poll(ctx context.Context, after, self, logType string) (Polled, error) {
	page, err := j.Svc.AuditPage(ctx, after, api.MaxAuditTake, logType)
	if err != nil {
		return Polled{}, err
	}
	p := Polled{Entries: entriesOf(page.Entries), Full: page.Full, Last: page.Last}
	p.CaughtUp = !page.Full
	for _, e := range p.Entries {
		if !IsOwnRead(e, self) {
			p.CaughtUp = false
		}
	}
	return p, nil
}
