// This file decides, from the client-matters listing, what became of the
// pairs a deletion sent but never heard back about.

package matters

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Lister is the listing Judge reads.
type Lister interface {
	ClientMatters() api.Listing[api.ClientMatter]
}

// Codes of the in-flight pairs a restore leaves alone.
const (
	CodeNeverExisted  = "never_existed"
	CodePresent       = "present"
	CodeDeletedBefore = "deleted_before"
	CodeUnproven      = "unproven"
	// CodeDeletedLater: a later deletion on this machine (another receipt)
	// answered "deleted" for the pair after this run's request went out.
	CodeDeletedLater = "deleted_later"
)

// sighting is one listed record that may be a pair's matter.
type sighting struct {
	deleted bool
	at      time.Time // deleted_at; zero when unreadable
}

// evidence is what the listing shows about one in-flight pair: records
// carrying its identifiers (exact), and records whose stored name could
// be client_id + delimiter + matter_id for some delimiter (byName: the
// public record has only the name, and the delimiter cannot be read).
type evidence struct {
	exact, byName []sighting
}

// Judge lists the workspace's client matters once and returns, for each
// in-flight pair in order, an outcome with an empty Result when the pair
// must be restored, or its reason to be left alone. The rules, since an
// upsert resolves a pair exactly as the deletion did (spec rule 4) and
// creates it when nothing matches:
//   - restore only when a record carrying the pair's own identifiers is
//     deleted at or after the moment its request went out (this machine's
//     send time moved onto the service's clock by the listing's Date
//     header). Then the pair resolves to at least that matter, so the
//     upsert cannot create anything.
//   - never_existed: no record carries the identifiers and no stored name
//     could be the pair's. The deletion found nothing; an upsert would
//     invent a matter.
//   - present: the matter is live; deleted_before: it was deleted before
//     the request went out. Either way this run did not delete it.
//   - unproven: a record found only by stored name is deleted after the
//     request went out, or a deletion time cannot be read, or the service
//     sent no Date: this run may have deleted it, but an upsert might
//     create a matter instead. Left alone, and the restore is not clean.
//
// Known limits: a deletion by someone else after the request went out (and
// before the restore) looks like this run's; the Date header's whole
// seconds make the boundary about a second wide; and the send time is
// written just before the request, so a wait for the rate limit before it
// widens the window by that wait.
func Judge(ctx context.Context, l Lister, pairs []InFlight) ([]Outcome, error) {
	type key struct{ c, m string }
	at := make(map[key]int, len(pairs))
	byClient := map[string][]int{}
	for i, p := range pairs {
		k := key{strings.TrimSpace(p.ClientID), strings.TrimSpace(p.MatterID)}
		at[k] = i
		byClient[k.c] = append(byClient[k.c], i)
	}
	ev := make([]evidence, len(pairs))
	sum, err := l.ClientMatters().Each(ctx, func(m *api.ClientMatter, _ api.RawItem) error {
		s := sighting{deleted: m.Deleted(), at: m.DeletedAt.Time}
		own := -1
		if m.ClientID != "" || m.MatterID != "" {
			if i, ok := at[key{strings.TrimSpace(m.ClientID), strings.TrimSpace(m.MatterID)}]; ok {
				ev[i].exact = append(ev[i].exact, s)
				own = i
			}
		}
		// name = client + delimiter (at least one character) + matter
		for n := 1; n < len(m.Name); n++ {
			for _, i := range byClient[m.Name[:n]] {
				rest := m.Name[n:]
				mid := strings.TrimSpace(pairs[i].MatterID)
				if i != own && len(rest) > len(mid) && strings.HasSuffix(rest, mid) {
					ev[i].byName = append(ev[i].byName, s)
				}
			}
		}
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	offset, clockOK := sum.Clock.Offset()
	out := make([]Outcome, len(pairs))
	for i, p := range pairs {
		o := Outcome{Line: p.Line, ClientID: p.ClientID, MatterID: p.MatterID}
		o.Result, o.Code, o.Detail = ev[i].verdict(p.SentAt.Add(offset), clockOK && !p.SentAt.IsZero())
		out[i] = o
	}
	return out, nil
}

// verdict applies Judge's rules to one pair whose request went out at
// sent (service clock); known is false when that moment is unknown.
func (e evidence) verdict(sent time.Time, known bool) (Result, string, string) {
	after := func(s sighting) bool { return s.deleted && (!known || s.at.IsZero() || !s.at.Before(sent)) }
	for _, s := range e.exact {
		if after(s) && known && !s.at.IsZero() {
			return "", "", ""
		}
	}
	for _, s := range append(e.exact, e.byName...) {
		if after(s) {
			why := "the listing shows a matter that may be this pair's deleted after the request went out, but cannot prove it is (found by stored name only)"
			switch {
			case !known:
				why = "the service's clock could not be compared with when the request went out (no Date header, or no send time on the receipt)"
			case s.at.IsZero():
				why = "the listing shows this pair's matter deleted at a time that cannot be read"
			}
			return ResultUnproven, CodeUnproven, why + "; nothing was sent: check it in the workspace"
		}
	}
	live := false
	for _, s := range append(e.exact, e.byName...) {
		live = live || !s.deleted
	}
	switch {
	case len(e.exact)+len(e.byName) == 0:
		return ResultLeftAlone, CodeNeverExisted, "the service lists no such matter: the deletion found nothing, and an upsert would create it"
	case live:
		return ResultLeftAlone, CodePresent, "the service lists the matter as present: this run did not delete it"
	default:
		return ResultLeftAlone, CodeDeletedBefore, fmt.Sprintf("the service lists the matter as deleted before this run's request went out (%s): not this run's deletion", sent.UTC().Format(time.RFC3339))
	}
}
