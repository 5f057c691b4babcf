package audit

import (
	"context"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// ProgressBook is where a follower records its progress (the store), for
// `audit follow --check` and for nothing else: a failed save is said once
// and the follow goes on (a probe then finds it late, which is what it
// should find).
type ProgressBook interface {
	SaveFollowProgress(ctx context.Context, name string, p store.FollowProgress) error
}

// Lag is how far behind the service's log an output that recorded p is at
// now: since the last read that found nothing more, or since the last
// entry delivered when that is later (a follower catching up a backlog).
// A follower that never recorded either is as far behind as it has run.
func Lag(p store.FollowProgress, now time.Time) time.Duration {
	at := p.CaughtUpAt
	if p.EntryAt.After(at) {
		at = p.EntryAt
	}
	if at.IsZero() {
		at = p.Started
	}
	if at.IsZero() || now.Before(at) {
		return 0
	}
	return now.Sub(at)
}

// progress is the follower's record of itself.
type progress struct {
	book    ProgressBook
	name    string
	p       store.FollowProgress
	sent    time.Time // when the read last answered was sent
	failing bool      // a save failed and was said
}

func (f *follower) startProgress() {
	f.prog = progress{book: f.o.Progress, name: f.o.ProgressName,
		p: store.FollowProgress{PID: f.o.PID, Started: f.j.clock().Now()}}
}

// succeeded notes a read the service answered.
func (f *follower) succeeded() {
	p := &f.prog.p
	p.SuccessAt, p.FailingSince, p.Failures, p.Refused = f.j.clock().Now(), time.Time{}, 0, false
}

// failed notes a read that failed and records it.
func (f *follower) failed(ctx context.Context, err error) {
	p := &f.prog.p
	if p.FailingSince.IsZero() {
		p.FailingSince = f.j.clock().Now()
	}
	p.Failures++
	p.Refused = refusal(err)
	f.saveProgress(ctx)
}

// delivered notes entries in the output and, when the read found the log
// caught up, that the output held all of it when that read was sent.
func (f *follower) delivered(ctx context.Context, entries []store.AuditEntry, caughtUp bool) {
	p := &f.prog.p
	p.Entries += int64(len(entries))
	for i := len(entries) - 1; i >= 0; i-- {
		if !entries[i].Time.IsZero() {
			p.EntryAt = entries[i].Time
			break
		}
	}
	if caughtUp {
		p.CaughtUpAt = f.prog.sent
	}
	f.saveProgress(ctx)
}

func (f *follower) saveProgress(ctx context.Context) {
	pr := &f.prog
	if pr.book == nil || pr.name == "" || ctx.Err() != nil {
		return
	}
	if err := pr.book.SaveFollowProgress(ctx, pr.name, pr.p); err != nil {
		if !pr.failing {
			f.say("%v: `audit follow --check` will find this follower late until it is recorded again", err)
		}
		pr.failing = true
		return
	}
	pr.failing = false
}
