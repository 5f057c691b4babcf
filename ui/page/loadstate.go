package page

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// LoadState keeps a page honest about its data: exactly one of loading
// (and what it waits for), loaded (with its age when it came from the
// cache or a refresh failed), empty, or failed (the error, r to retry).
// A failed load never reads as empty data. The zero value is "nothing
// asked yet".
type LoadState struct {
	loading  bool
	wait     *atomic.Pointer[api.Wait] // written by the request's goroutine
	err      error                     // the last load's failure
	loadedAt time.Time                 // when the data shown was fetched
	cached   bool                      // the data shown came from the cache
	has      bool                      // some data is shown
}

// Begin marks a load as running and returns its context: the api client
// reports budget and Retry-After waits to it, so the page can say what it
// waits for ("waiting 24s for the vault budget").
func (s *LoadState) Begin(ctx context.Context) context.Context {
	s.loading = true
	w := &atomic.Pointer[api.Wait]{}
	s.wait = w
	return api.WithWaitObserver(ctx, func(x api.Wait) { w.Store(&x) })
}

// Loaded records data fetched at at (cached: read from the cache).
func (s *LoadState) Loaded(at time.Time, cached bool) {
	s.loading, s.err, s.loadedAt, s.cached, s.has = false, nil, at, cached, true
}

// Failed records a failed load; data already shown stays (now stale).
func (s *LoadState) Failed(err error) { s.loading, s.err = false, err }

// Stop marks the running load as abandoned (superseded, page closed).
func (s *LoadState) Stop() { s.loading = false }

// Loading reports whether a load runs.
func (s *LoadState) Loading() bool { return s.loading }

// Err is the last load's failure, if it failed.
func (s *LoadState) Err() error { return s.err }

// FailedEmpty is the failed state proper: the load failed and there is no
// data to show; the page shows the error where the data would be.
func (s *LoadState) FailedEmpty() bool { return s.err != nil && !s.has && !s.loading }

// Timed reports whether the state's text depends on the clock (a wait's
// countdown, an age), so a page knows whether a 1-second tick is needed.
func (s *LoadState) Timed() bool {
	return (s.loading && s.waiting() != nil) || (s.has && (s.cached || s.err != nil))
}

func (s *LoadState) waiting() *api.Wait {
	if s.wait == nil {
		return nil
	}
	return s.wait.Load()
}

// Label is the info-line text of the state ("" when loaded and fresh).
func (s *LoadState) Label(now time.Time) string {
	switch {
	case s.loading:
		if w := s.waiting(); w != nil && w.Until.After(now) {
			left := int(w.Until.Sub(now).Seconds() + 0.999)
			if w.Reason == api.WaitBudget {
				return fmt.Sprintf("waiting %ds for the %s budget", left, w.Category)
			}
			return fmt.Sprintf("waiting %ds: %s", left, w.String())
		}
		return "loading"
	case s.err != nil && s.has:
		return "stale " + age(s.loadedAt, now) + ", refresh failed: " + sanitize.Line(s.err.Error()) + " · r retries"
	case s.err != nil:
		return "failed · r retries"
	case s.cached:
		return "cached " + humanize.RelTime(s.loadedAt, now, "ago", "from now") + " · r refreshes"
	}
	return ""
}

// FailedView is the body of a page whose load failed with nothing to show.
func (s *LoadState) FailedView(what string) string {
	return strings.Join([]string{
		what + " could not be loaded:",
		"  " + sanitize.Line(s.err.Error()),
		"",
		"r retries",
	}, "\n")
}

func age(at, now time.Time) string {
	d := now.Sub(at)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}

// ClockTick is the 1-second tick that refreshes time-based text (a wait's
// countdown, an age). Scoped: only the page that armed it gets it.
type ClockTick struct{ Tag }

// Clock runs one 1-second tick for a page, only while the page shows
// time-based text and is on top: an idle console sends no messages. The
// zero value is stopped.
type Clock struct {
	armed  bool
	paused bool
}

// Keep arms the tick when want (the page shows time-based text) and it is
// not running; the page calls it after every change of state.
func (c *Clock) Keep(env Env, view ID, want bool) tea.Cmd {
	if !want || c.armed || c.paused {
		return nil
	}
	c.armed = true
	every := env.ClockEvery
	if every <= 0 {
		every = time.Second
	}
	return tea.Tick(every, func(time.Time) tea.Msg { return ClockTick{Tag{View: view}} })
}

// Tick handles the page's ClockTick: it re-arms while want.
func (c *Clock) Tick(env Env, view ID, want bool) tea.Cmd {
	c.armed = false
	return c.Keep(env, view, want)
}

// Pause stops the tick while the page is covered; Resume re-arms it.
func (c *Clock) Pause() { c.paused = true }

// Resume is Pause's inverse.
func (c *Clock) Resume(env Env, view ID, want bool) tea.Cmd {
	c.paused = false
	return c.Keep(env, view, want)
}
