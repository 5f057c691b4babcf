package filestatusview

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// tickMsg fires when the next scheduled poll is due. Tag.Seq is the poll
// generation at arming time: any later arming, manual refresh or leaving the
// view bumps the generation, so a tick that was already in flight is dropped
// instead of starting a second poll chain.
type tickMsg struct{ page.Tag }

// pollMsg is the outcome of one poll. Requested lists only the IDs whose
// request succeeded, so a failure halfway keeps the answers already received.
type pollMsg struct {
	page.Tag
	Requested []string
	Details   []api.FileDetail
	Calls     int
	Err       error
}

// pollCmd asks get_files about ids in calls of at most 1000 (the service's
// limit). It splits here rather than relying on the client's own batching
// so that a rate limit or failure on a later call still delivers the
// earlier answers.
func pollCmd(ctx context.Context, b page.Backend, tag page.Tag, ids []string) tea.Cmd {
	return func() tea.Msg {
		msg := pollMsg{Tag: tag}
		for start := 0; start < len(ids); start += api.MaxFileIDs {
			chunk := ids[start:min(start+api.MaxFileIDs, len(ids))]
			got, err := b.GetFiles(ctx, chunk)
			msg.Calls++
			if err != nil {
				msg.Err = err
				return msg
			}
			msg.Requested = append(msg.Requested, chunk...)
			msg.Details = append(msg.Details, api.Values(got)...)
		}
		return msg
	}
}

// vaultBudget reads the shared vault budget in the scheduler's terms.
func vaultBudget(b page.Backend) filestatus.Budget {
	return filestatus.BudgetOf(b.Budget(api.CategoryVault))
}

// fatal reports errors that retrying cannot fix (a token without the Vault
// API permission, an expired token): polling stops until the user presses r.
func fatal(err error) bool {
	var ae *api.Error
	if errors.As(err, &ae) {
		switch ae.Kind {
		case api.KindUnauthorized, api.KindForbidden, api.KindCanceled:
			return true
		}
	}
	return errors.Is(err, context.Canceled)
}

// retryAfter extracts the server's Retry-After, if the error carries one.
func retryAfter(err error) time.Duration {
	var ae *api.Error
	if errors.As(err, &ae) {
		return ae.RetryAfter
	}
	return 0
}

// startPoll begins a poll unless one is running. manual is a refresh the
// user asked for: it may use the reserve and, when everything has settled,
// re-checks all IDs. It returns nil when nothing was started.
func (m *Model) startPoll(manual bool) tea.Cmd {
	if m.inFlight {
		if manual {
			return page.Status("a poll is already running")
		}
		return nil
	}
	b := vaultBudget(m.env.Backend)
	pending := m.tr.Pending()
	all := false
	var calls int
	if manual {
		n := pending
		if n == 0 {
			all, n = true, len(m.tr.Files)
		}
		calls = m.cadence().Manual(n, b)
		if calls == 0 {
			return page.Status("vault budget used up; try again in " + formatAge(b.ResetIn))
		}
		m.stopped = false
	} else {
		p := m.cadence().Next(pending, b, m.failures, m.retryAfter, 0)
		if p.Calls == 0 {
			return m.arm(p) // budget low (or nothing pending): wait, spend nothing
		}
		calls = p.Calls
	}
	ids := m.tr.Batch(calls*api.MaxFileIDs, all)
	if len(ids) == 0 {
		return nil
	}
	m.inFlight = true
	m.gen++ // a tick armed before this poll must not start another one
	m.nextAt = time.Time{}
	tag := page.Tag{View: m.id, Seq: m.gen}
	ctx, cancel := context.WithCancel(m.env.Context())
	m.pollCancel = cancel
	return tea.Batch(m.loader.Start(), pollCmd(ctx, m.env.Backend, tag, ids))
}

// finishPoll folds a poll's outcome into the view and arms the next tick
// while something is still pending.
func (m *Model) finishPoll(msg pollMsg) tea.Cmd {
	m.inFlight = false
	if m.pollCancel != nil {
		m.pollCancel()
		m.pollCancel = nil
	}
	m.loader.Done()
	now := m.env.Clock()
	var cmds []tea.Cmd
	if len(msg.Requested) > 0 {
		unseen := m.tr.Unseen()
		changed := m.tr.Apply(msg.Requested, msg.Details, now)
		if changed > 0 || m.tr.Unseen() != unseen {
			m.quiet = 0
		} else {
			m.quiet++
		}
		m.lastPoll = now
		cmds = append(cmds, m.rebuild(now), m.saveStatuses(msg.Details))
	}
	if msg.Err != nil {
		m.failures++
		m.retryAfter = retryAfter(msg.Err)
		m.lastErr = msg.Err
		cmds = append(cmds, page.Error(msg.Err))
		if fatal(msg.Err) {
			m.stopped = true
			return tea.Batch(cmds...)
		}
	} else {
		m.failures, m.retryAfter, m.lastErr = 0, 0, nil
	}
	p := m.cadence().Next(m.tr.Pending(), vaultBudget(m.env.Backend), m.failures, m.retryAfter, m.quiet)
	cmds = append(cmds, m.arm(p))
	return tea.Batch(cmds...)
}

// cadence is the console's poll rule: it shares the vault budget with
// every view open beside it (not Alone).
func (m *Model) cadence() filestatus.Cadence { return filestatus.Cadence{Base: m.opts.BaseInterval} }

// arm schedules the next tick per p, or stops when nothing is pending. Each
// arming starts a new generation so only the newest tick is live.
func (m *Model) arm(p filestatus.Plan) tea.Cmd {
	m.plan = p
	if m.tr.Pending() == 0 {
		m.nextAt = time.Time{}
		return nil
	}
	m.nextAt = m.env.Clock().Add(p.Wait)
	return m.tickToNext()
}

// tickToNext arms the tick for nextAt. A covered view arms nothing: it
// keeps nextAt so that Activate knows whether a poll fell due meanwhile.
func (m *Model) tickToNext() tea.Cmd {
	m.gen++
	if m.inactive {
		return nil
	}
	// nextAt was now plus the plan's wait when armed, so more than that
	// ahead means the clock was set back: wait the plan's interval, not
	// the hours it jumped.
	wait := min(max(0, m.nextAt.Sub(m.env.Clock())), m.plan.Wait)
	tag := page.Tag{View: m.id, Seq: m.gen}
	return m.opts.Tick(wait, func(time.Time) tea.Msg { return tickMsg{tag} })
}

// Close implements page.Closer: the page left the stack for good, so its
// poll in flight is cancelled (even while it waits for budget): nobody will
// see its answer. A covered page (Deactivate) lets its poll land instead.
func (m *Model) Close() {
	m.gen++
	m.closed = true
	m.clock.Pause()
	if m.pollCancel != nil {
		m.pollCancel()
		m.pollCancel = nil
	}
}

// Deactivate implements page.Activatable: another page covers this one.
// Bumping the generation drops the tick already armed; a poll in flight
// still lands (its answers are kept) but arms nothing.
func (m *Model) Deactivate() {
	m.inactive = true
	m.gen++
	m.clock.Pause()
}

// Activate implements page.Activatable: the view is shown again. A poll
// that fell due while covered runs at once (one poll, not one per missed
// tick); otherwise the tick is re-armed for the time that is left.
func (m *Model) Activate() tea.Cmd {
	if !m.inactive {
		return nil
	}
	m.inactive = false
	if m.stopped || m.inFlight || m.tr.Pending() == 0 {
		return m.clock.Resume(m.env, m.id, m.counting())
	}
	if m.nextAt.IsZero() || !m.env.Clock().Before(m.nextAt) {
		poll := m.startPoll(false)
		return tea.Batch(poll, m.clock.Resume(m.env, m.id, m.counting()))
	}
	return tea.Batch(m.tickToNext(), m.clock.Resume(m.env, m.id, m.counting()))
}

// onTick starts the scheduled poll if the tick is still the live one.
func (m *Model) onTick(msg tickMsg) tea.Cmd {
	if msg.Seq != m.gen || m.stopped || m.inFlight || m.inactive {
		return nil // superseded, stopped, covered, or a poll is already running
	}
	m.nextAt = time.Time{}
	return m.startPoll(false)
}
