package filestatus

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/ui/triage"
)

// headerLines is the number of lines View puts above the table.
const headerLines = 2

// View renders the summary line, the polling line and the table. Its cost
// does not depend on the number of files: counts are kept by rebuild and
// the table renders only its window.
func (m *Model) View() string {
	if m.confirm != nil {
		return m.confirmView()
	}
	var b strings.Builder
	b.WriteString(m.summaryLine())
	b.WriteByte('\n')
	b.WriteString(m.pollLine())
	b.WriteByte('\n')
	if m.pasting {
		// The table gives up its info line to the paste input.
		tv := m.Table.View()
		if i := strings.LastIndexByte(tv, '\n'); i >= 0 {
			tv = tv[:i+1]
		}
		b.WriteString(tv)
		b.WriteString(m.paste.View())
		return b.String()
	}
	b.WriteString(m.Table.View())
	return b.String()
}

func (m *Model) summaryLine() string {
	th := m.env.Theme
	parts := []string{th.Title.Render("File status"), plural(len(m.tr.files), "file")}
	if m.nPending == 0 && len(m.tr.files) > 0 {
		parts = append(parts, th.OK.Render("all settled"))
	}
	// The triage groups: stuck and processing split the non-final files
	// now, as the clock moves.
	c := m.counts
	c[triage.Stuck] = min(m.stuck.count(m.env.Clock()), m.nonFinal)
	c[triage.Processing] = m.nonFinal - c[triage.Stuck]
	line := c.Line()
	if c[triage.Stuck] > 0 {
		line = th.Alarm.Render(line)
	}
	parts = append(parts, line)
	if c[triage.Stuck] > 0 {
		parts = append(parts, th.Alarm.Render(fmt.Sprintf("stuck: > %s", shortDur(m.opts.StuckAfter))))
	}
	if m.group != allGroups {
		parts = append(parts, th.Changed.Render("showing "+m.group.String()+" (0 all)"))
	}
	if m.seenOnly {
		parts = append(parts, th.Muted.Render("≥ since first seen"))
	}
	if m.nChanged > 0 {
		parts = append(parts, th.Changed.Render(strconv.Itoa(m.nChanged)+" changed"))
	}
	return m.clip(strings.Join(parts, " · "))
}

// pollLine shows what the poller is doing and why: the next poll, the
// interval and its reason, and the vault budget the interval came from.
func (m *Model) pollLine() string {
	th := m.env.Theme
	now := m.env.Clock()
	b := vaultBudget(m.env.Backend)
	var parts []string
	switch {
	case m.inFlight:
		parts = append(parts, strings.TrimSpace(m.loader.View()+" polling…"))
	case m.stopped:
		parts = append(parts, th.Warn.Render("polling stopped (r to retry)"))
	case !m.nextAt.IsZero():
		parts = append(parts, "next poll in "+shortDur(max(0, m.nextAt.Sub(now))))
	case len(m.tr.files) > 0 && m.nPending == 0:
		parts = append(parts, "not polling: every file is settled")
	}
	if m.plan.Wait > 0 {
		parts = append(parts, fmt.Sprintf("interval %s (%s)", shortDur(m.plan.Wait), m.plan.Reason))
	}
	if b.Limit < 1<<20 {
		s := fmt.Sprintf("vault budget %d/%d", b.Remaining, b.Limit)
		if b.ResetIn > 0 {
			s += ", resets in " + shortDur(b.ResetIn)
		}
		if b.Remaining <= reserve(b.Limit) {
			s = th.Warn.Render(s)
		}
		parts = append(parts, s)
	}
	if !m.lastPoll.IsZero() {
		parts = append(parts, "last poll "+shortDur(now.Sub(m.lastPoll))+" ago")
	}
	if m.lastErr != nil {
		parts = append(parts, th.Error.Render("last poll failed"))
	}
	return m.clip(th.Muted.Render(strings.Join(parts, " · ")))
}

// clip keeps header lines to one terminal line.
func (m *Model) clip(s string) string {
	if m.Width <= 0 {
		return s
	}
	return ansi.Truncate(s, m.Width, "…")
}

// shortDur prints whole seconds for the header ("12s", "1m30s", "30m").
func shortDur(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d%time.Minute == 0 && d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return formatAge(d)
}
