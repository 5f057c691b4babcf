package auditcmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// SyncOptions are what `audit sync` works with. The pace is the audit
// budget's, which the global --max-rate lowers.
type SyncOptions struct {
	IO     *printer.Printer
	Client func() (*api.Client, error)
	Store  func() (*store.Store, error)
	Clock  api.Clock
}

// NewCmdSync is `audit sync`; runF, when set, runs instead of RunSync.
func NewCmdSync(f *factory.Factory, runF func(context.Context, *SyncOptions) int) *cobra.Command {
	o := &SyncOptions{IO: f.IO, Client: f.Client, Store: f.Store, Clock: f.Clock}
	if runF == nil {
		runF = RunSync
	}
	return &cobra.Command{Use: "sync", Short: "copy the audit log into the local mirror (resumable, paced inside the audit budget)", Args: cmdutil.NoArgs,
		RunE: cmdutil.Run(f, func(ctx context.Context, _ []string) int { return runF(ctx, o) })}
}

// RunSync copies the audit log into the local mirror, with a progress
// line on a terminal and a closing line always.
func RunSync(ctx context.Context, o *SyncOptions) int {
	p := o.IO
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	st, err := o.Store()
	if err != nil {
		return p.Fail(fmt.Errorf("the audit mirror lives in the local database, which could not be opened: %w", err))
	}
	defer st.Close()
	line := p.Progress()
	j := &audit.Job{Svc: c, Mirror: st, Clock: o.Clock, Progress: func(pr audit.Progress) {
		line.Status("audit sync: " + pr.String())
	}}
	res, err := j.Sync(p.Watch(ctx))
	line.Done()
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, api.KindCanceled) {
			p.Note("stopped after %s; every page read is kept: run it again to go on", res.Progress)
			return printer.ExitError
		}
		if errors.Is(err, store.ErrDamaged) {
			return p.Fail(err) // its remedy is its own: a sync again would be refused again
		}
		return p.Fail(fmt.Errorf("%w (%s; every page read is kept: run it again to go on)", err, res.Progress))
	}
	if line.On() { // on a terminal; a pipe (cron, a timer) gets nothing after a success
		p.Note("%s; the mirror holds %s, %s to %s UTC",
			res.Progress, plural.Count(res.State.Entries, "entry"), printer.UTCSeconds(res.State.First), printer.UTCSeconds(res.State.Last))
	}
	return printer.ExitOK
}
