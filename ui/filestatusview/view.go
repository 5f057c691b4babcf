package filestatusview

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// headerLines is the number of lines View puts above the table when the
// summary and the polling line each fit on one; fitHeader gives the table
// less when they wrap.
const headerLines = 2

// View renders the summary line, the polling line and the table. Its cost
// does not depend on the number of files: counts are kept by rebuild and
// the table renders only its window.
func (m *Model) View() string {
	if m.confirm != nil {
		return m.confirmView()
	}
	var b strings.Builder
	for _, l := range m.headerView() {
		b.WriteString(l)
		b.WriteByte('\n')
	}
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

// headerView is the summary and the polling line, wrapped to the width
// rather than cut (widgets.Fit): a count or a reason is never cut short.
func (m *Model) headerView() []string {
	info := widgets.Info{Title: "File status", Parts: m.summaryParts()}
	return append(info.Lines(m.env.Theme, m.Width, m.env.Clock()), widgets.Fit(m.Width, m.pollParts()...)...)
}

// fitHeader gives the table what the header leaves, after anything that
// may change the header's height (a poll, a tick, a key, a resize).
func (m *Model) fitHeader() {
	if n := len(m.headerView()); n != m.TableView.Header && m.Height > 0 {
		m.TableView.Header = n
		m.TableView.SetSize(m.Width, m.Height)
	}
}

func (m *Model) summaryParts() []widgets.Part {
	th := m.env.Theme
	parts := []widgets.Part{widgets.Keep(plural.Count(len(m.tr.Files), "file"))}
	if m.nPending == 0 && len(m.tr.Files) > 0 {
		parts = append(parts, widgets.Keep(th.OK.Render("all settled")))
	}
	// The triage groups: stuck and processing split the non-final files
	// now, as the clock moves.
	c := m.counts
	c[filestatus.Stuck] = min(m.stuck.count(m.env.Clock()), m.nonFinal)
	c[filestatus.Processing] = m.nonFinal - c[filestatus.Stuck]
	for g, n := range m.jcounts { // the journal's never-confirmed files count in their groups
		c[g] += n
	}
	for _, p := range c.Parts() {
		if c[filestatus.Stuck] > 0 {
			p = th.Alarm.Render(p)
		}
		parts = append(parts, widgets.Keep(p))
	}
	for _, w := range []string{"not sent", "upload failed", "unproven"} {
		if n := m.jwords[w]; n > 0 { // journal rows, counted in the groups above too
			parts = append(parts, widgets.Keep(th.Alarm.Render(fmt.Sprintf("%d %s", n, w))))
		}
	}
	if m.group != allGroups {
		parts = append(parts, widgets.Keep(th.Changed.Render("showing "+m.group.String()+" (0 all)")))
	}
	if m.nChanged > 0 {
		parts = append(parts, widgets.Keep(th.Changed.Render(strconv.Itoa(m.nChanged)+" changed")))
	}
	if c[filestatus.Stuck] > 0 {
		parts = append(parts, widgets.Deco(th.Alarm.Render(fmt.Sprintf("stuck: > %s", shortDur(m.opts.StuckAfter)))))
	}
	if m.seenOnly {
		parts = append(parts, widgets.Deco(th.Muted.Render("≥ since first seen")))
	}
	return parts
}

// pollParts show what the poller is doing and why: the next poll, the
// interval and its reason, and the vault budget the interval came from.
func (m *Model) pollParts() []widgets.Part {
	th := m.env.Theme
	now := m.env.Clock()
	b := vaultBudget(m.env.Backend)
	var parts []widgets.Part
	muted := func(s string) string { return th.Muted.Render(s) }
	switch {
	case m.inFlight:
		parts = append(parts, widgets.Keep(muted(strings.TrimSpace(m.loader.View()+" polling…"))))
	case m.stopped:
		parts = append(parts, widgets.Keep(th.Warn.Render("polling stopped (r to retry)")))
	case !m.nextAt.IsZero():
		parts = append(parts, widgets.Keep(muted("next poll in "+shortDur(max(0, m.nextAt.Sub(now))))))
	case len(m.tr.Files) > 0 && m.nPending == 0:
		parts = append(parts, widgets.Keep(muted("not polling: every file is settled")))
	}
	if b.Limit < 1<<20 {
		s := fmt.Sprintf("vault budget %d/%d left", b.Remaining, b.Limit)
		if b.ResetIn > 0 {
			s += ", resets in " + shortDur(b.ResetIn)
		}
		if b.Low() {
			s = th.Warn.Render(s)
		} else {
			s = muted(s)
		}
		parts = append(parts, widgets.Keep(s))
	}
	if m.lastErr != nil {
		parts = append(parts, widgets.Keep(th.Error.Render("last poll failed")))
	}
	if m.plan.Wait > 0 {
		parts = append(parts, widgets.Deco(muted(fmt.Sprintf("interval %s (%s)", shortDur(m.plan.Wait), m.plan.Reason))))
	}
	switch {
	case m.lastPoll.IsZero():
	case m.counting():
		parts = append(parts, widgets.Deco(muted("last poll "+shortDur(now.Sub(m.lastPoll))+" ago")))
	default:
		// nothing ticks now (counting): an age would stand still and lie
		parts = append(parts, widgets.Deco(muted("last poll at "+m.lastPoll.Format("15:04:05"))))
	}
	return parts
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
