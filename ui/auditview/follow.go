package auditview

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// pollMsg is one look for new entries.
type pollMsg struct {
	polled audit.Polled
	after  string
}

// pollTick asks for the next look; Seq ties it to the follow that armed
// it, so a tick of a follow that was stopped does nothing.
type pollTick struct {
	page.Tag
}

// pollEvery is the pause between looks while entries arrive; caught up
// (only the view's own reads came back), the pause is slowCaughtUp times
// as long. Env.TaskPoll sets it (tests use a tiny one).
func (m *Model) pollEvery() time.Duration {
	d := m.env.TaskPollInterval()
	if m.caughtUp {
		return d * slowCaughtUp
	}
	return d
}

// slowCaughtUp: a follower whose looks find only its own traces has
// caught up and looks less often (each look writes one more).
const slowCaughtUp = 3

// toggleFollow starts or stops following (F). Following starts from the
// newest entries, so a view scrolled back or jumped lands on them first.
func (m *Model) toggleFollow() tea.Cmd {
	if m.following {
		m.following = false
		m.poll.Stop()
		return page.Status("stopped following the audit log")
	}
	m.following, m.newCount, m.caughtUp = true, 0, false
	var cmd tea.Cmd
	if !m.atNewest {
		cmd = m.newest()
	}
	return tea.Batch(cmd, m.armPoll(0), page.Status("following the audit log: new entries appear at the top"))
}

// armPoll schedules the next look after d.
func (m *Model) armPoll(d time.Duration) tea.Cmd {
	tag := m.poll.Next(m.id)
	if d <= 0 {
		return func() tea.Msg { return pollTick{tag} }
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return pollTick{tag} })
}

// pollNow looks for entries after the newest one shown. While a read of
// the newest is still under way (the follow just started), it waits for
// that first.
func (m *Model) pollNow(t pollTick) tea.Cmd {
	if t.View != m.id || !m.poll.Current(t.Tag) || !m.following {
		return nil
	}
	if m.loading != "" || len(m.entries) == 0 {
		return m.armPoll(m.pollEvery())
	}
	after := m.newestID()
	tag, ctx := m.poll.Start(m.env.Context(), m.id)
	j, self, typ := m.job, m.self, m.filter.Type
	return page.Fetch(ctx, tag, "poll", func(ctx context.Context) (pollMsg, error) {
		p, err := j.Poll(ctx, after, self, typ)
		return pollMsg{polled: p, after: after}, err
	})
}

// newestID is the newest entry shown; with a filter set, entries that
// do not pass it are read and not shown, so the cursor is kept apart.
func (m *Model) newestID() string {
	if m.pollCursor != "" {
		return m.pollCursor
	}
	return m.entries[0].ID
}

func (m *Model) gotPoll(msg page.Result[pollMsg]) tea.Cmd {
	if msg.View != m.id || !m.poll.Current(msg.Tag) || !m.following {
		return nil
	}
	if msg.Err != nil {
		m.lastErr = msg.Err
		return tea.Batch(page.Error(msg.Err), m.armPoll(m.pollEvery()*2))
	}
	m.lastErr = nil
	p := msg.Value.polled
	m.caughtUp = p.CaughtUp
	if p.Last != "" {
		m.pollCursor = p.Last
	}
	var news []store.AuditEntry
	for i := len(p.Entries) - 1; i >= 0; i-- {
		if m.filter.Match(p.Entries[i]) {
			news = append(news, p.Entries[i])
		}
	}
	away := m.Table.Cursor() > 0
	shown := map[string]bool{}
	for _, e := range news {
		_, shown[e.ID] = m.byID[e.ID]
	}
	cmd := m.add(news, nil)
	if away {
		// what people did: the view's own reads are shown but not news
		for _, e := range news {
			if !shown[e.ID] && !audit.IsOwnRead(e, m.self) {
				m.newCount++
			}
		}
	}
	next := m.pollEvery()
	if p.Full {
		next = 0 // more are waiting
	}
	return tea.Batch(cmd, m.armPoll(next))
}
