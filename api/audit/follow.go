package audit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// FollowOptions configure Follow.
type FollowOptions struct {
	Sink Sink
	// Start is where a sink with nothing delivered begins: "earliest"
	// (the whole trail; the default) or "latest" (the newest entry on).
	Start string
	// Poll is the wait between reads once caught up while entries other
	// than this follower's own reads arrive (default 2s); IdlePoll is the
	// longest wait it grows to, doubling, while pages hold only its own
	// reads (default 1m).
	Poll, IdlePoll time.Duration
	// Once stops when caught up (a cron or timer run) instead of polling.
	Once bool
	// Reopen receives SIGHUP: the sink reopens before the next request.
	Reopen <-chan struct{}
	// Notice is told, as one line, of trouble and of recovery (stderr).
	Notice func(string)
	// Event, when set, is told after every read (tests and progress).
	Event func(FollowEvent)

	// AuthGrace bounds how long the token may be refused (401, or 403 on
	// the audit permission) with no request accepted before Follow gives
	// up with ErrTokenRefused (0: DefaultAuthGrace).
	AuthGrace time.Duration

	// Progress, when set, is told after every read how far the output is
	// (store.FollowProgress) under ProgressName, the sink's checkpoint
	// name; PID is recorded with it.
	Progress     ProgressBook
	ProgressName string
	PID          int

	// take is the page size asked for (0: the listing's most, 1000). A
	// test seam (export_test.go): small pages make many batches.
	take int
}

// FollowEvent is one read of Follow.
type FollowEvent struct {
	Delivered int           // entries delivered from this read
	OwnOnly   bool          // the read listed nothing but this token's own reads
	CaughtUp  bool          // the page was short
	Wait      time.Duration // the wait before the next read
	Err       error         // a transient error, retried after Wait
	// Progress is the follower's record of itself after this read.
	Progress store.FollowProgress
}

// Defaults of FollowOptions.
const (
	DefaultPoll     = 2 * time.Second
	DefaultIdlePoll = time.Minute
	maxRetryWait    = 5 * time.Minute
	// DefaultAuthGrace outlasts a token being replaced by hand (a login,
	// a credential rewritten and the unit restarted) without leaving a
	// dead feed looking alive for long.
	DefaultAuthGrace = 5 * time.Minute
)

// Follow delivers every entry after the sink's last one, in the service's
// order, and keeps doing so as the log grows, until ctx ends (nil) or a
// permanent error. A transient error (no answer, 5xx, 429, a 401 or 403
// while a token is being fixed) is said through Notice and retried with
// backoff: trouble with the service forever, a refused token until
// AuthGrace has passed with no request accepted (ErrTokenRefused). The follower's own reads write api:audit_log_fetch
// entries of its user; a page holding only those means caught up, so the
// polling slows down instead of chasing them (they are still delivered:
// the trail is complete). With a mirror, the pages that continue the
// mirror's cursor are stored in it too.
func (j *Job) Follow(ctx context.Context, o FollowOptions) error {
	err := j.follow(ctx, o.withDefaults())
	if ctx.Err() != nil {
		return nil // stopped (SIGINT, SIGTERM): everything read was delivered
	}
	return err
}

func (j *Job) follow(ctx context.Context, o FollowOptions) error {
	ctx = j.checked(ctx)
	if j.Mirror != nil {
		// The mirror and the sink's checkpoints are written into it.
		if err := j.Mirror.Check(); err != nil {
			return err
		}
	}
	f := &follower{j: j, o: o, bo: retryBackoff()}
	f.startProgress()
	var who *api.WhoAmI
	err := f.retrying(ctx, func() error {
		var err error
		f.log, who, err = LogOf(ctx, j.Svc)
		if err != nil && who != nil {
			// whoami answered but names no one: follow on without the
			// mirror, and take any page of audit reads alone as caught up
			f.say("%v: following without the mirror", err)
			f.noMirror = true
			return nil
		}
		return err
	})
	if err != nil {
		return err
	}
	f.self = strings.ToLower(who.Email)
	if j.Mirror != nil && !f.noMirror {
		if f.mirror, err = j.Mirror.AuditState(ctx, f.log); err != nil {
			f.say("the audit mirror could not be read (%v): following without it", err)
			f.noMirror = true
		}
	}
	cursor, err := o.Sink.Resume(ctx)
	if err != nil {
		return err
	}
	p := newPacer(j.clock(), j.gap())
	f.ord = after(cursor, time.Time{})
	if cursor == "" {
		if cursor, err = f.begin(ctx, p); err != nil || cursor == "" {
			return err
		}
	}
	idle := o.Poll
	for {
		if err := f.reopenIfAsked(ctx); err != nil {
			return err
		}
		var page api.AuditPage
		err := f.retrying(ctx, func() error {
			if err := p.wait(ctx); err != nil {
				return err
			}
			var err error
			f.prog.sent = j.clock().Now()
			page, err = j.Svc.AuditPage(ctx, cursor, o.take, "")
			return err
		})
		if err != nil {
			return err
		}
		if err := f.ord.take(page.Entries...); err != nil {
			return err
		}
		entries := entriesOf(page.Entries)
		if err := f.deliver(ctx, entries); err != nil {
			return err
		}
		f.keepMirror(ctx, cursor, page, entries)
		ev := FollowEvent{Delivered: len(entries), CaughtUp: !page.Full || page.Last == "" || page.Last == cursor}
		f.delivered(ctx, entries, ev.CaughtUp)
		ev.Progress = f.prog.p
		if page.Last != "" {
			cursor = page.Last
		}
		if !ev.CaughtUp {
			f.event(ev)
			continue
		}
		if o.Once {
			f.event(ev)
			return nil
		}
		if ev.OwnOnly = f.ownOnly(entries); ev.OwnOnly {
			idle = min(idle*2, o.IdlePoll)
		} else {
			idle = o.Poll
		}
		ev.Wait = idle
		f.event(ev)
		if err := f.sleep(ctx, idle); err != nil {
			return err
		}
	}
}

func (o FollowOptions) withDefaults() FollowOptions {
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	if o.IdlePoll < o.Poll {
		o.IdlePoll = max(DefaultIdlePoll, o.Poll)
	}
	if o.Notice == nil {
		o.Notice = func(string) {}
	}
	if o.Start == "" {
		o.Start = "earliest"
	}
	if o.AuthGrace <= 0 {
		o.AuthGrace = DefaultAuthGrace
	}
	if o.take <= 0 || o.take > api.MaxAuditTake {
		o.take = api.MaxAuditTake
	}
	return o
}

type follower struct {
	j        *Job
	o        FollowOptions
	log      string
	self     string
	mirror   store.AuditMirrorState
	noMirror bool
	bo       *backoff.ExponentialBackOff
	failing  string // the trouble last said, until it clears
	// refusedSince is when the token was first refused with no request
	// accepted since (zero: it is not refused). Other trouble in between
	// does not clear it: it proves nothing of the token.
	refusedSince time.Time
	ord          order // the last entry taken: every answer must continue after it
	prog         progress
}

func (f *follower) say(format string, a ...any) { f.o.Notice(fmt.Sprintf(format, a...)) }

func (f *follower) event(ev FollowEvent) {
	if f.o.Event != nil {
		f.o.Event(ev)
	}
}

// begin delivers the first entry of a sink that has none: the earliest
// entry, or the latest with Start "latest". "" when the log is empty.
func (f *follower) begin(ctx context.Context, p *pacer) (string, error) {
	var first *api.Item[api.AuditEntry]
	err := f.retrying(ctx, func() error {
		if err := p.wait(ctx); err != nil {
			return err
		}
		var err error
		if f.o.Start == "latest" {
			first, err = f.j.Svc.AuditLatest(ctx, "")
		} else {
			first, err = f.j.Svc.AuditEarliest(ctx, "")
		}
		return err
	})
	if err != nil || first == nil {
		return "", err
	}
	if err := f.ord.take(*first); err != nil {
		return "", err
	}
	e := EntryOf(*first)
	if err := f.deliver(ctx, []store.AuditEntry{e}); err != nil {
		return "", err
	}
	if f.o.Start != "latest" {
		f.keepMirror(ctx, "", api.AuditPage{Entries: []api.Item[api.AuditEntry]{*first}, Last: e.ID, Listed: 1}, []store.AuditEntry{e})
	}
	f.delivered(ctx, []store.AuditEntry{e}, false)
	return e.ID, nil
}

// ownOnly says a caught-up page held nothing but this token's own reads.
func (f *follower) ownOnly(entries []store.AuditEntry) bool {
	for _, e := range entries {
		if e.Type != "api:audit_log_fetch" || (f.self != "" && strings.ToLower(e.User) != f.self) {
			return false
		}
	}
	return true
}

// deliver hands entries to the sink; a full disk (or quota, or a short
// write) and a checkpoint the store did not take are waited out (said,
// and retried with backoff), any other failure of the sink is permanent.
// The sink cuts a failed batch back off and never writes an entry twice,
// so a retry repeats nothing.
func (f *follower) deliver(ctx context.Context, entries []store.AuditEntry) error {
	failed := false
	for {
		err := f.o.Sink.Deliver(ctx, entries)
		if err == nil && failed {
			f.say("the output is written again; nothing was lost or repeated")
		}
		if err == nil || !sinkRetries(err) {
			return err
		}
		failed = true
		wait := f.bo.NextBackOff()
		f.say("%v; trying again in %s", err, wait.Round(time.Second))
		if err := f.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// sinkRetries says a delivery failure may pass: space that may be freed.
func sinkRetries(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, io.ErrShortWrite) ||
		errors.Is(err, errCheckpoint)
}

// keepMirror stores the part of a page that continues the mirror's
// cursor: all of it when the page was read after the cursor, the entries
// after the cursor when the page holds it, nothing otherwise (the mirror
// is behind or ahead: `audit sync` brings it along).
func (f *follower) keepMirror(ctx context.Context, from string, page api.AuditPage, entries []store.AuditEntry) {
	if f.j.Mirror == nil || f.noMirror || page.Last == "" {
		return
	}
	st := f.mirror
	var rest []store.AuditEntry
	switch {
	case st.Cursor == from && (from != "" || !st.Started()):
		rest = entries
	case st.Cursor != "":
		i := -1
		for k, e := range entries {
			if e.ID == st.Cursor {
				i = k
				break
			}
		}
		if i < 0 {
			return
		}
		rest = entries[i+1:]
	default:
		return
	}
	p := store.AuditMirrorPage{Log: f.log, Prev: st.Cursor, Entries: rest, Cursor: page.Last, CaughtUp: !page.Full, At: f.j.clock().Now()}
	if err := f.j.Mirror.SaveAuditPage(ctx, p); err != nil {
		if !errors.Is(err, store.ErrAuditCursorMoved) {
			f.say("the audit mirror could not be updated (%v): following without it", err)
			f.noMirror = true
			return
		}
	}
	if st, err := f.j.Mirror.AuditState(ctx, f.log); err == nil {
		f.mirror = st
	}
}
