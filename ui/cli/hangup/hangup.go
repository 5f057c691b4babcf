// Package hangup is the one watcher of SIGHUP for the commands that keep
// running through it: `vaultdeck serve` reloads its keys, `audit follow`
// reopens its file (logrotate's meaning). main ends every command on
// SIGHUP (a closed terminal ends the console), so such a command runs on a
// context of its own, which ends with the parent's unless the parent ended
// by a hangup; SIGINT and SIGTERM still end it (watched here too, since
// main's watch ends at its first signal).
package hangup

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Keep runs fn at each SIGHUP until the returned context ends; stop stops
// the watch and ends that context. fn runs on the watcher's goroutine: one
// that must not block it hands the news on (see Channel).
func Keep(parent context.Context, fn func()) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
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
				fn()
			case <-parentDone:
				if !ByHangup(parent) {
					cancel()
					return
				}
				parentDone = nil // a hangup: kept running, not stopped
			case <-ctx.Done():
				return
			}
		}
	}()
	return ctx, func() { signal.Stop(sig); cancel() }
}

// Channel is Keep with each SIGHUP sent on a channel instead, dropped
// while one is still waiting there (two hangups before the reader looks
// mean one reopen).
func Channel(parent context.Context) (context.Context, <-chan struct{}, func()) {
	hup := make(chan struct{}, 1)
	ctx, stop := Keep(parent, func() {
		select {
		case hup <- struct{}{}:
		default:
		}
	})
	return ctx, hup, stop
}

// ByHangup says whether ctx ended because of a SIGHUP (main's signal
// context names the signal as its cause).
func ByHangup(ctx context.Context) bool {
	cause := context.Cause(ctx)
	return cause != nil && cause.Error() == syscall.SIGHUP.String()+" signal received"
}
