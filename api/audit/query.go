package audit

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// Answer says where a query's entries came from.
type Answer struct {
	// Mirror: the mirror answered for the entries up to its cursor.
	// Service: the service was read after it (or for everything, without
	// a mirror). Both may be true.
	Mirror, Service bool
	MirrorState     store.AuditMirrorState
	Requests        int    // audit requests made
	How             string // how the service was read ("search", "earliest", "newest")
	Delivered       int
}

// String is the sentence a user sees on stderr.
func (a Answer) String() string {
	upTo := a.MirrorState.Last.UTC().Format("2006-01-02 15:04:05")
	switch {
	case a.Mirror && !a.Service:
		return fmt.Sprintf("%s from the local mirror (it holds the log up to %s UTC; no request was made)", plural.Count(a.Delivered, "entry", "entries"), upTo)
	case a.Mirror:
		return fmt.Sprintf("%s from the local mirror up to %s UTC, then from the service (%s)", plural.Count(a.Delivered, "entry", "entries"), upTo, plural.Count(a.Requests, "request", "requests"))
	case a.How == "newest":
		return fmt.Sprintf("%s from the service, newest first, found by searching back in time (%s; `vaultdeck audit sync` keeps a mirror that answers without them)", plural.Count(a.Delivered, "entry", "entries"), plural.Count(a.Requests, "request", "requests"))
	case a.How == "earliest":
		return fmt.Sprintf("%s from the service, paged from its earliest entry (%s; `vaultdeck audit sync` keeps a mirror that answers without them)", plural.Count(a.Delivered, "entry", "entries"), plural.Count(a.Requests, "request", "requests"))
	default:
		return fmt.Sprintf("%s from the service, found by %s and paged on (%s; `vaultdeck audit sync` keeps a mirror that answers without them)", plural.Count(a.Delivered, "entry", "entries"), a.How, plural.Count(a.Requests, "request", "requests"))
	}
}

// errEnough stops a listing at the limit.
var errEnough = errors.New("enough")

// Query hands the entries that pass f to fn, oldest first: from the
// mirror where it covers the range, from the service after the mirror's
// cursor (or for everything without a mirror: found by search when
// f.Since is within the service's year, else paged from the earliest
// entry). f.Newest reads newest first instead, window by window as the
// console does (Older). The entries from the service are not written to
// the mirror: a query changes nothing (sync does that).
func (j *Job) Query(ctx context.Context, f store.AuditFilter, fn func(store.AuditEntry) error) (Answer, error) {
	if f.Newest {
		return j.newestFirst(ctx, f, newestChunk, fn)
	}
	var a Answer
	deliver := func(e store.AuditEntry) error {
		if !f.Match(e) {
			return nil
		}
		if err := fn(e); err != nil {
			return err
		}
		a.Delivered++
		if f.Limit > 0 && a.Delivered >= f.Limit {
			return errEnough
		}
		return nil
	}
	cursor := ""
	var ord order
	if j.Mirror != nil {
		log, _, err := LogOf(ctx, j.Svc)
		if err != nil {
			return a, err
		}
		st, err := j.Mirror.AuditState(ctx, log)
		if err != nil {
			return a, err
		}
		if st.Started() {
			a.Mirror, a.MirrorState = true, st
			covered := st.Covers(f.Until)
			err := j.Mirror.AuditEntries(ctx, log, f, func(e store.AuditEntry) error {
				if err := fn(e); err != nil {
					return err
				}
				a.Delivered++
				return nil
			})
			if err != nil || covered || (f.Limit > 0 && a.Delivered >= f.Limit) {
				return a, err
			}
			cursor = st.Cursor // "" for a log that was empty: read it from the start
			ord = after(st.Cursor, st.Last)
		}
	}
	a.Service = true
	p := newPacer(j.clock(), j.gap())
	if cursor == "" {
		first, how, err := j.start(ctx, p, f.Since, askType(f))
		a.Requests++
		a.How = how
		if err != nil || first == nil {
			return a, err
		}
		if err := ord.take(*first); err != nil {
			return a, err
		}
		if !f.Until.IsZero() && !first.Value.Timestamp.Before(f.Until) {
			return a, nil
		}
		if err := deliver(EntryOf(*first)); err != nil {
			return a, nilIfEnough(err)
		}
		cursor = first.Value.ID
	}
	for {
		if err := p.wait(ctx); err != nil {
			return a, err
		}
		// The type is asked of the service (every audit endpoint takes
		// log_type) and still matched here by deliver: one copy of the
		// listing's reference shows no parameters, and a service that
		// ignores it must not widen the answer.
		page, err := j.Svc.AuditPage(ctx, cursor, api.MaxAuditTake, askType(f))
		a.Requests++
		if err != nil {
			return a, err
		}
		if err := ord.take(page.Entries...); err != nil {
			return a, err
		}
		for _, it := range page.Entries {
			if !f.Until.IsZero() && !it.Value.Timestamp.IsZero() && !it.Value.Timestamp.Before(f.Until) {
				return a, nil // the listing ascends in time: nothing later can match
			}
			if err := deliver(EntryOf(it)); err != nil {
				return a, nilIfEnough(err)
			}
		}
		if !page.Full || page.Last == "" || page.Last == cursor {
			return a, nil
		}
		cursor = page.Last
	}
}

func nilIfEnough(err error) error {
	if errors.Is(err, errEnough) {
		return nil
	}
	return err
}

// searchMargin keeps a search a little inside the service's one-year
// reach, so clock skew between this machine and the service cannot turn
// it into a 400.
const searchMargin = time.Hour

// start finds where the service part of a query begins: the first entry
// (of logType, when given) at or after since by search when since is
// within the service's reach, else the earliest entry.
func (j *Job) start(ctx context.Context, p *pacer, since time.Time, logType string) (*api.Item[api.AuditEntry], string, error) {
	if err := p.wait(ctx); err != nil {
		return nil, "", err
	}
	now := j.clock().Now()
	if !since.IsZero() && since.After(now.Add(-api.AuditSearchReach+searchMargin)) {
		it, err := j.Svc.AuditSearch(ctx, since, logType)
		return it, "search", err
	}
	it, err := j.Svc.AuditEarliest(ctx, logType)
	return it, "earliest", err
}

// askType is f's type as log_type asks it of the service: lower case,
// since the filter ignores case (as the mirror's does) and every type the
// service documents is lower case (auth:login, api:vault_delete_project),
// so AUTH:LOGIN still finds the logins where a service compares exactly.
func askType(f store.AuditFilter) string { return strings.ToLower(strings.TrimSpace(f.Type)) }
