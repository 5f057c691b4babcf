package auditcmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/metrics"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/hangup"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// FollowOptions are what `audit follow` was asked and what it works with.
type FollowOptions struct {
	IO     *printer.Printer
	Client func() (*api.Client, error)
	Store  func() (*store.Store, error)
	Clock  api.Clock

	Out        string        // append JSON Lines to this file (its own checkpoint); "": stdout
	Checkpoint string        // with stdout: keep the last id delivered under this name
	Start      string        // earliest (default) or latest, when nothing was delivered yet
	Poll       time.Duration // base wait between reads once caught up
	Once       bool          // stop once caught up
	NoMirror   bool          // do not update the local mirror
	AuthGrace  time.Duration // how long a refused token is retried before exit 4
	Check      bool          // a monitoring probe of the follow of Out or Checkpoint
	MaxLag     time.Duration // the probe's bound
	PID        int           // recorded with the progress (the process's)
	Metrics    string        // serve Prometheus metrics on this loopback HOST:PORT
}

// NewCmdFollow is `audit follow`; runF, when set, runs instead of
// RunFollow.
func NewCmdFollow(f *factory.Factory, runF func(context.Context, *FollowOptions) int) *cobra.Command {
	o := &FollowOptions{IO: f.IO, Client: f.Client, Store: f.Store, Clock: f.Clock, PID: os.Getpid()}
	c := &cobra.Command{Use: "follow", Short: "stream every new audit entry as JSON Lines, to a file that is its own checkpoint or to stdout", Args: cmdutil.NoArgs}
	fs := c.Flags()
	fs.StringVar(&o.Out, "out", "", "append JSON Lines to `FILE`; the file is its own checkpoint (exactly once across restarts)")
	fs.StringVar(&o.Checkpoint, "checkpoint", "", "with stdout: keep the last entry delivered under `NAME` in the local database (at least once across restarts)")
	fs.StringVar(&o.Start, "start", "earliest", "where to begin when nothing was delivered yet: `earliest|latest` (the whole trail, or from now)")
	fs.DurationVar(&o.Poll, "poll", audit.DefaultPoll, "wait between reads once caught up (it grows to a minute while only this follower's own reads arrive)")
	fs.BoolVar(&o.Once, "once", false, "stop once caught up (for a timer or cron) instead of following")
	fs.BoolVar(&o.NoMirror, "no-mirror", false, "do not keep the local mirror up to date while following")
	fs.DurationVar(&o.AuthGrace, "auth-grace", audit.DefaultAuthGrace, "exit 4 once the token has been refused (401, or 403 on the audit permission) this long with nothing accepted; other trouble is retried for ever")
	fs.BoolVar(&o.Check, "check", false, "monitoring probe of the follow of this --out or --checkpoint, from what it recorded (no token): one Nagios-style line; exit 0 within --max-lag, 3 past it, 1 when unknown")
	fs.DurationVar(&o.MaxLag, "max-lag", 15*time.Minute, "with --check: how far behind the log the follow may be")
	fs.StringVar(&o.Metrics, "metrics", "", "serve Prometheus metrics (lag, entries written, last success, failures, budget waits) at http://`ADDR`/metrics (ADDR a loopback HOST:PORT)")
	if runF == nil {
		runF = RunFollow
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int { return runF(ctx, o) })
	return c
}

// RunFollow streams the log as JSON Lines until stopped. Exit 0 on SIGINT
// or SIGTERM (everything read was delivered), 1 on a permanent error, 4
// when the token stayed refused past --auth-grace; other trouble is said
// on stderr and retried, forever.
func RunFollow(ctx context.Context, o *FollowOptions) int {
	p := o.IO
	switch {
	case o.Start != "earliest" && o.Start != "latest":
		return p.Usage("--start must be earliest or latest, not %q", o.Start)
	case o.Out != "" && o.Checkpoint != "":
		return p.Usage("--checkpoint is for stdout: a file given with --out is its own checkpoint")
	case o.Poll < 100*time.Millisecond:
		return p.Usage("--poll must be at least 100ms (got %s)", o.Poll)
	case o.AuthGrace <= 0:
		return p.Usage("--auth-grace must be a positive duration such as 5m (got %s)", o.AuthGrace)
	case store.ReservedCheckpointName(o.Checkpoint):
		return p.Usage("--checkpoint %q: a name beginning %q is the store's own", o.Checkpoint, strings.SplitAfter(o.Checkpoint, ":")[0])
	}
	if o.Metrics != "" {
		if err := metrics.CheckLoopback(o.Metrics); err != nil {
			return p.Usage("--metrics: %v", err)
		}
	}
	if o.Check {
		return runCheck(ctx, o)
	}
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	j := &audit.Job{Svc: c, Clock: o.Clock}
	st, stErr := o.Store()
	if stErr == nil {
		defer st.Close()
		if !o.NoMirror {
			j.Mirror = st
		}
	} else if o.Checkpoint != "" {
		return p.Fail(fmt.Errorf("--checkpoint keeps its place in the local database, which could not be opened: %w", stErr))
	}
	notice := func(s string) { p.Note("%s", s) }
	var sink audit.Sink
	if o.Out != "" {
		fsink, err := audit.OpenFileSink(o.Out)
		if err != nil {
			return p.Fail(err)
		}
		defer fsink.Close()
		fsink.Notice = notice // the file's repairs and rotations are said too
		if stErr == nil {
			// only for a file emptied by rotation; the file itself is the authority
			fsink.Checkpoints, fsink.CheckpointName = st, checkpointName(o)
		}
		sink = fsink
	} else {
		// stdout that waits out a full disk: the lines it refused are
		// written from their first byte once there is room, none twice
		out := printer.NewResumable(p)
		ws := &audit.WriterSink{W: bufio.NewWriterSize(out, 256<<10), Flush: out.Flush, CheckpointName: o.Checkpoint}
		if o.Checkpoint != "" {
			ws.Checkpoints = st
		}
		sink = ws
	}
	// SIGHUP as logrotate means it: reopen the file, not stop
	ctx, hup, stop := hangup.Channel(ctx)
	defer stop()
	ctx = p.Watch(ctx) // hangup.Channel detached it from the command's: a lost stream ends it too, before the next request
	fo := audit.FollowOptions{Sink: sink, Start: o.Start, Poll: o.Poll, Once: o.Once, Reopen: hup,
		Notice: notice, AuthGrace: o.AuthGrace, PID: o.PID}
	told := newNotifier(notice)
	fo.Event = told.event
	if o.Metrics != "" {
		m := metrics.NewFollow(audit.Lag, func() time.Time { return now(o.Clock) })
		srv, err := metrics.Listen(o.Metrics, m.Set)
		if err != nil {
			return p.Fail(err)
		}
		defer srv.Close()
		p.Note("metrics on http://%s/metrics", srv.Addr)
		fo.Event = func(ev audit.FollowEvent) { told.event(ev); m.Progressed(ev.Progress, ev.Delivered) }
		ctx = api.WithWaitObserver(ctx, func(w api.Wait) {
			if w.Reason == api.WaitBudget {
				m.BudgetWait()
			}
		})
	}
	if stErr == nil {
		fo.Progress, fo.ProgressName = st, checkpointName(o)
	}
	err = j.Follow(ctx, fo)
	if err != nil {
		code := p.Fail(err)
		if errors.Is(err, audit.ErrTokenRefused) {
			return printer.ExitAuth // its own status, so that a unit's Restart= and OnFailure= can tell it
		}
		return code
	}
	return printer.ExitOK
}

// checkpointName is what the follow of o keeps its place and progress
// under: the file's absolute path, or --checkpoint's name ("" for stdout
// without one: no progress is recorded).
func checkpointName(o *FollowOptions) string {
	if o.Out == "" {
		return o.Checkpoint
	}
	abs, _ := filepath.Abs(o.Out)
	return "file:" + abs
}
