package auditcmd

import (
	"context"
	"errors"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// errEnoughShown stops a query once --limit entries were shown (hidden own
// reads do not count).
var errEnoughShown = errors.New("enough entries shown")

// query is an audit query (audit.Job.Query: the mirror where it covers the
// range, the service otherwise) as a printer.Stream: the entries a page of
// api.MaxAuditTake at a time, so a table lines up and stdout is pushed
// through as they come, and memory stays flat.
type query struct {
	job   *audit.Job
	f     store.AuditFilter
	self  string // the token's user, whose own reads are left out; "": none
	limit int    // entries to show when the filter's own limit cannot count them (own reads hidden)

	answer  audit.Answer
	stopped bool // the limit was reached
}

// entry is a listed audit entry: the mirror's record, and the fields of
// the service's entry as its JSON names them (never set), which the
// printer reads off the type for `--json FIELDS`: the items printed are
// the service's own JSON (id, timestamp, type, user, ...), not the
// record's Go names. Before, `audit --json id` was refused ("available
// fields: ID, IP, Raw, Seq, Time, Type, User").
type entry struct {
	store.AuditEntry `json:"-"`
	serviceFields
}

// serviceFields names the service's entry for the printer (an alias, so
// that it embeds beside store.AuditEntry under a name of its own).
type serviceFields = api.AuditEntry

func (q *query) Raw(ctx context.Context, fn func(api.RawItem) error, page func() error) (api.Summary, error) {
	return q.Each(ctx, func(_ *entry, it api.RawItem) error { return fn(it) }, page)
}

func (q *query) Each(ctx context.Context, fn func(*entry, api.RawItem) error, page func() error) (api.Summary, error) {
	shown, inPage := 0, 0
	var cur entry // one record handed from entry to entry, as api.Listing's Each does
	ans, err := q.job.Query(ctx, q.f, func(e store.AuditEntry) error {
		if audit.IsOwnRead(e, q.self) {
			return nil
		}
		shown++
		cur.AuditEntry = e
		if err := fn(&cur, api.RawItem{Bytes: e.Raw}); err != nil {
			return err
		}
		if inPage++; inPage == api.MaxAuditTake {
			inPage = 0
			if err := page(); err != nil {
				return err
			}
		}
		if q.limit > 0 && shown == q.limit {
			return errEnoughShown
		}
		return nil
	})
	q.answer = ans
	if q.stopped = errors.Is(err, errEnoughShown); q.stopped {
		err = nil
	}
	if err == nil && inPage > 0 {
		err = page()
	}
	return api.Summary{}, err
}
