package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// AuditQueryOptions is `vaultdeck audit`'s command line, as plain values:
// the flag layer (stdlib flag today, cobra later) only fills it.
type AuditQueryOptions struct {
	Since, Until string // a date (2026-11-01), a time (RFC 3339), or an age (36h, 7d); "" unbounded
	Type         string // log type, exactly
	User         string // e-mail address
	IP           string
	Grep         string // text anywhere in an entry's JSON
	Limit        int    // 0: all
	// Newest and Oldest choose the order; with neither, newest first
	// unless Since is given (a question from a time on reads forward).
	Newest, Oldest bool
	// HideOwnReads leaves out the token's user's own reads of the log (one
	// whoami names the user): the console's audit view hides them until h,
	// and its equivalent command must list the same rows.
	HideOwnReads bool
}

// errEnoughShown stops a query once --limit entries were shown (hidden own
// reads do not count).
var errEnoughShown = errors.New("enough entries shown")

// newestFirst says o lists newest first: asked for, or the default
// without --since (an admin's first question is what happened recently).
func (o AuditQueryOptions) newestFirst() bool {
	return o.Newest || (!o.Oldest && strings.TrimSpace(o.Since) == "")
}

// auditQuery answers o from the mirror where it covers the range, from the
// service otherwise, and says which on a terminal's stderr.
func (r *runner) auditQuery(ctx context.Context, o AuditQueryOptions) int {
	if o.Limit < 0 {
		return r.usage("--limit must be 0 or more")
	}
	if o.Newest && o.Oldest {
		return r.usage("--newest and --oldest ask for opposite orders: give one")
	}
	now := time.Now()
	if r.env.Clock != nil {
		now = r.env.Clock.Now()
	}
	f := store.AuditFilter{Type: strings.TrimSpace(o.Type), User: strings.TrimSpace(o.User), IP: strings.TrimSpace(o.IP),
		Grep: o.Grep, Limit: o.Limit, Newest: o.newestFirst()}
	var err error
	if f.Since, err = parseWhen(o.Since, now); err != nil {
		return r.usage("--since: %v", err)
	}
	if f.Until, err = parseWhen(o.Until, now); err != nil {
		return r.usage("--until: %v", err)
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Since.Before(f.Until) {
		return r.usage("--since (%s) must be before --until (%s)", fmtUTC(f.Since), fmtUTC(f.Until))
	}
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	self, limit := "", 0
	if o.HideOwnReads {
		w, err := c.WhoAmI(ctx)
		if err != nil {
			return r.fail(fmt.Errorf("--hide-own-reads needs the token's user: %w", err))
		}
		self, limit, f.Limit = w.Email, f.Limit, 0 // the limit counts what is shown
	}
	shown := 0
	j := &audit.Job{Svc: c, Clock: r.env.Clock}
	if st, err := r.openStore(); err == nil {
		defer st.Close()
		j.Mirror = st
	}
	out := r.listing("[", "TIME (UTC)", "TYPE", "USER", "IP", "ID")
	ctx = api.WithWaitObserver(ctx, out.p.observe)
	// Entries go out a page at a time (aligned on the columns the first page set),
	// and the page is written as soon as it is full, so memory stays flat.
	var batch []store.AuditEntry
	flush := func() error {
		err := out.page(len(batch), func(i int) []byte { return batch[i].Raw }, func(i int) []string {
			e := batch[i]
			return []string{r.atSeconds(e.Time), e.Type, e.User, e.IP, e.ID}
		})
		batch = batch[:0]
		return err
	}
	ans, err := j.Query(ctx, f, func(e store.AuditEntry) error {
		if audit.IsOwnRead(e, self) {
			return nil
		}
		shown++
		if batch = append(batch, e); len(batch) == api.MaxAuditTake {
			if err := flush(); err != nil {
				return err
			}
		}
		if limit > 0 && shown == limit {
			return errEnoughShown
		}
		return nil
	})
	stopped := errors.Is(err, errEnoughShown)
	if stopped {
		err = nil
	}
	// What was read and checked before a failure still goes out: the
	// listing's end then says how far it got, as every listing does.
	if len(batch) > 0 {
		if ferr := flush(); err == nil {
			err = ferr
		}
	}
	code := out.end(err, "]")
	// Where the answer came from, for the person reading it; a pipe gets
	// nothing extra on stderr after a success, like every listing.
	if err == nil && !stopped && r.stderrIsTerminal() {
		fmt.Fprintf(r.env.Stderr, "vaultdeck audit: %s\n", ans)
	}
	return code
}

// atSeconds is at to the second: audit entries a second apart differ.
func (r *runner) atSeconds(t time.Time) string {
	if r.g.CSV && !t.IsZero() {
		return t.UTC().Format(time.RFC3339)
	}
	return fmtUTC(t)
}

func fmtUTC(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// parseWhen reads a time bound with the one reader of typed times, which
// the console's @ jump shares (audit.ParseWhen).
func parseWhen(s string, now time.Time) (time.Time, error) { return audit.ParseWhen(s, now) }
