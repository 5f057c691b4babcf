package activityview

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// keys handles a key press. Keys that arrive in one read (fast typing,
// key repeat over SSH, `tmux send-keys lll`) come as one message with
// several runes: each is handled as if typed alone.
func (m *Model) keys(msg tea.KeyMsg) tea.Cmd {
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
		var cmds []tea.Cmd
		for _, r := range msg.Runes {
			cmds = append(cmds, m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}))
		}
		return tea.Batch(cmds...)
	}
	return m.key(msg)
}

func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Refresh):
		m.reread = true
		return m.load()
	case key.Matches(msg, k.ByPeriod):
		m.by = map[bool]time.Duration{true: time.Hour, false: 24 * time.Hour}[m.by >= 24*time.Hour]
		return m.load()
	case key.Matches(msg, k.TypeCycle):
		m.typ = m.nextType()
		return m.load()
	}
	if m.stats == nil || len(m.stats.Buckets) == 0 {
		return nil
	}
	last := len(m.stats.Buckets) - 1
	switch {
	case key.Matches(msg, k.Earlier):
		m.onMarks, m.bar = false, max(m.bar-1, 0)
	case key.Matches(msg, k.Later):
		m.onMarks, m.bar = false, min(m.bar+1, last)
	case key.Matches(msg, k.Top):
		m.onMarks, m.bar = false, 0
	case key.Matches(msg, k.Bottom):
		m.onMarks, m.bar = false, last
	case key.Matches(msg, k.NextTab), key.Matches(msg, k.PrevTab):
		m.onMarks = !m.onMarks && len(m.stats.Marks) > 0
	case key.Matches(msg, k.Down):
		if m.onMarks {
			m.mark = min(m.mark+1, len(m.stats.Marks)-1)
		} else {
			m.onMarks = len(m.stats.Marks) > 0
		}
	case key.Matches(msg, k.Up):
		if m.onMarks && m.mark == 0 {
			m.onMarks = false
		} else if m.onMarks {
			m.mark--
		}
	case key.Matches(msg, k.Enter):
		return m.open()
	}
	return nil
}

// nextType cycles the histogram's type: every type, then the range's
// types most frequent first.
func (m *Model) nextType() string {
	if m.stats == nil || len(m.stats.Types) == 0 {
		return ""
	}
	if m.typ == "" {
		return m.stats.Types[0].Name
	}
	for i, t := range m.stats.Types {
		if strings.EqualFold(t.Name, m.typ) && i+1 < len(m.stats.Types) {
			return m.stats.Types[i+1].Name
		}
	}
	return ""
}

// open opens the audit view on the entries behind the selected bar or
// mark: its span of time, type, user and address, as the audit route
// reads them (FROM..UNTIL, a word with @, an address, a type).
func (m *Model) open() tea.Cmd {
	var f store.AuditFilter
	switch {
	case m.onMarks && m.mark < len(m.stats.Marks):
		f = m.stats.Marks[m.mark].Filter()
	case m.bar < len(m.stats.Buckets):
		f = m.stats.Filter(m.bar)
	default:
		return nil
	}
	return page.OpenRoute("audit", RouteArg(f))
}

// RouteArg is the audit route's argument for the entries f selects.
func RouteArg(f store.AuditFilter) string { return audit.RouteOf(f).Arg() }
