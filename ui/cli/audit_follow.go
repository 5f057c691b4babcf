package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
)

// AuditFollowOptions is `vaultdeck audit follow`'s command line.
type AuditFollowOptions struct {
	Out        string        // append JSON Lines to this file (its own checkpoint); "": stdout
	Checkpoint string        // with stdout: keep the last id delivered under this name
	Start      string        // earliest (default) or latest, when nothing was delivered yet
	Poll       time.Duration // base wait between reads once caught up
	Once       bool          // stop once caught up
	NoMirror   bool          // do not update the local mirror
}

// auditFollow streams the log as JSON Lines until stopped. Exit 0 on
// SIGINT or SIGTERM (everything read was delivered), 1 on a permanent
// error; transient trouble is said on stderr and retried, forever.
func (r *runner) auditFollow(ctx context.Context, o AuditFollowOptions) int {
	switch {
	case o.Start != "earliest" && o.Start != "latest":
		return r.usage("--start must be earliest or latest, not %q", o.Start)
	case o.Out != "" && o.Checkpoint != "":
		return r.usage("--checkpoint is for stdout: a file given with --out is its own checkpoint")
	case o.Poll < 100*time.Millisecond:
		return r.usage("--poll must be at least 100ms (got %s)", o.Poll)
	}
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	j := &audit.Job{Svc: c, Clock: r.env.Clock}
	st, stErr := r.openStore()
	if stErr == nil {
		defer st.Close()
		if !o.NoMirror {
			j.Mirror = st
		}
	} else if o.Checkpoint != "" {
		return r.fail(fmt.Errorf("--checkpoint keeps its place in the local database, which could not be opened: %w", stErr))
	}
	notice := func(s string) { fmt.Fprintf(r.env.Stderr, "vaultdeck audit follow: %s\n", oneLine(s)) }
	var sink audit.Sink
	if o.Out != "" {
		fsink, err := audit.OpenFileSink(o.Out)
		if err != nil {
			return r.fail(err)
		}
		defer fsink.Close()
		fsink.Notice = notice // the file's repairs and rotations are said too
		if stErr == nil {
			// only for a file emptied by rotation; the file itself is the authority
			abs, _ := filepath.Abs(o.Out)
			fsink.Checkpoints, fsink.CheckpointName = st, "file:"+abs
		}
		sink = fsink
	} else {
		ws := &audit.WriterSink{W: bufio.NewWriterSize(r.env.Stdout, 256<<10), Flush: r.flushOut, CheckpointName: o.Checkpoint}
		if o.Checkpoint != "" {
			ws.Checkpoints = st
		}
		sink = ws
	}
	ctx, hup, stop := hangupReopens(ctx)
	defer stop()
	err = j.Follow(ctx, audit.FollowOptions{Sink: sink, Start: o.Start, Poll: o.Poll, Once: o.Once, Reopen: hup,
		Notice: notice})
	if err != nil {
		return r.fail(err)
	}
	return ExitOK
}

// hangupReopens gives follow SIGHUP as logrotate means it: reopen the
// file, not stop. main ends every command on SIGHUP (a closed terminal
// ends the console), so follow runs on a context of its own that ends
// with the parent's, unless the parent ended by a hangup; SIGINT and SIGTERM
// still end it (watched here too, since main's watch ends at its first
// signal). Each SIGHUP sends on the returned channel.
func hangupReopens(parent context.Context) (context.Context, <-chan struct{}, func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	hup := make(chan struct{}, 1)
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGHUP, os.Interrupt, syscall.SIGTERM)
	go func() {
		parentDone := parent.Done()
		for {
			select {
			case s := <-sig:
				if s != syscall.SIGHUP {
					cancel()
					return
				}
				select {
				case hup <- struct{}{}:
				default:
				}
			case <-parentDone:
				cause := context.Cause(parent)
				if cause == nil || cause.Error() != syscall.SIGHUP.String()+" signal received" {
					cancel()
					return
				}
				parentDone = nil // a hangup: keep following
			case <-ctx.Done():
				return
			}
		}
	}()
	return ctx, hup, func() { signal.Stop(sig); cancel() }
}
