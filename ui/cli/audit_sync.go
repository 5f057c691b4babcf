package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
)

// AuditSyncOptions is `vaultdeck audit sync`'s command line. The pace is
// the audit budget's, which the global --max-rate lowers.
type AuditSyncOptions struct{}

// auditSync copies the audit log into the local mirror, with a progress
// line on a terminal and a closing line always.
func (r *runner) auditSync(ctx context.Context, o AuditSyncOptions) int {
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	st, err := r.openStore()
	if err != nil {
		return r.fail(fmt.Errorf("the audit mirror lives in the local database, which could not be opened: %w", err))
	}
	defer st.Close()
	p := r.listProgress()
	ctx = api.WithWaitObserver(ctx, p.observe)
	last := time.Time{}
	j := &audit.Job{Svc: c, Mirror: st, Clock: r.env.Clock, Progress: func(pr audit.Progress) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.on || time.Since(last) < 200*time.Millisecond {
			return
		}
		last = time.Now()
		fmt.Fprintf(p.w, "\r\x1b[Kaudit sync: %s", pr)
		p.drawn = true
	}}
	res, err := j.Sync(ctx)
	p.done()
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, api.KindCanceled) {
			fmt.Fprintf(r.env.Stderr, "vaultdeck audit sync: stopped after %s; every page read is kept: run it again to go on\n", res.Progress)
			return ExitError
		}
		return r.fail(fmt.Errorf("%w (%s; every page read is kept: run it again to go on)", err, res.Progress))
	}
	if p.on { // on a terminal; a pipe (cron, a timer) gets nothing after a success
		fmt.Fprintf(r.env.Stderr, "vaultdeck audit sync: %s; the mirror holds %s, %s to %s UTC\n",
			res.Progress, plural.Count(res.State.Entries, "entry"), fmtUTC(res.State.First), fmtUTC(res.State.Last))
	}
	return ExitOK
}
