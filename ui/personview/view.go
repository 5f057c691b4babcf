package personview

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

const whenLayout = "2006-01-02 15:04"

// Per-part bounds: the console shows what fits a glance; the command line
// (`vaultdeck person`) lists everything.
const (
	maxRows    = 8
	maxLatest  = 10
	maxAddress = 6
)

// View implements page.Page: a head line, then the parts, scrolled.
func (m *Model) View() string {
	th := m.env.Theme
	if v, ok := m.access.View(th, m.w, m.h); ok {
		return v
	}
	head := th.Title.Render("Person") + " " + sanitize.Line(m.email)
	switch {
	case m.rep != nil && m.rep.Name != "":
		head += " " + th.Muted.Render("("+sanitize.Line(m.rep.Name)+")")
	}
	if m.loading {
		what := "reading local data…"
		if m.filling {
			what = "asking the service for the missing parts…"
		}
		head += "  " + th.Muted.Render(what)
	}
	lines := []string{head}
	switch {
	case m.rep == nil && m.err != nil:
		lines = append(lines, th.Error.Render(sanitize.Line(m.err.Error())))
	case m.rep != nil:
		body := m.body()
		end := min(len(body), m.top+max(0, m.h-1))
		lines = append(lines, body[min(m.top, end):end]...)
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, max(m.w, 1), "…")
	}
	return widgets.FitHeight(strings.Join(lines, "\n"), m.h)
}

// partLine is the body line part p starts at.
func (m *Model) partLine(p int) (int, bool) {
	if m.rep == nil {
		return 0, false
	}
	_, starts := m.lines()
	return starts[p], true
}

func (m *Model) body() []string {
	if m.rep == nil {
		return nil
	}
	out, _ := m.lines()
	return out
}

// lines renders the report's parts; starts[p] is where part p begins.
func (m *Model) lines() (out []string, starts [nParts]int) {
	th, r, now := m.env.Theme, m.rep, m.env.Clock()
	title := func(p int, name string, s person.Source, summary string) {
		starts[p] = len(out)
		mark := "  "
		if p == m.part {
			mark = "▸ " // the part tab and enter act on
		}
		line := mark + th.Title.Render(name)
		if !s.Covered() {
			fill := "run it in a shell"
			if s.Fill != "" {
				fill = "r reads it"
			}
			missing := s.Missing
			if ch := page.Chore(s.Job); m.env.Chores.Has(ch) {
				missing, fill = "nothing local covers it yet", m.env.ChoreHint(ch) // the demo: the key, not a shell
			}
			out = append(out, line+" "+th.Warn.Render("missing: "+missing)+" "+th.Muted.Render("· "+fill))
			return
		}
		out = append(out, line+" "+summary+" "+th.Muted.Render("· "+s.From+", "+age(s.AsOf, now)))
	}
	row := func(cells ...string) { out = append(out, "    "+strings.Join(cells, "  ")) }
	more := func(n, shown int) {
		if n > shown {
			out = append(out, th.Muted.Render(fmt.Sprintf("    … %d more (vaultdeck person %s)", n-shown, sanitize.Line(r.Email))))
		}
	}

	rc := r.Reach
	manage := 0
	for _, g := range rc.Grants {
		if strings.EqualFold(g.AccessLevel, "MANAGE") {
			manage++
		}
	}
	title(partReach, "Reach", rc.Source, fmt.Sprintf("%s, %d MANAGE, only MANAGE on %d", plural.Count(len(rc.Grants), "project"), manage, len(rc.SoleManage)))
	if rc.Covered() {
		sole := map[string]bool{}
		for _, g := range rc.SoleManage {
			sole[g.ProjectID] = true
		}
		for i, g := range m.reachRows() {
			flag := ""
			if sole[g.ProjectID] {
				flag = th.Warn.Render("only MANAGE: who takes over?")
			}
			if did, ok := m.access.Outcome(g.ProjectID, m.email); ok {
				flag = th.Warn.Render("direct share " + did + " since the snapshot (job below)")
			}
			cursor := []rune("    ")
			if m.part == partReach && i == m.row {
				cursor[2] = '›' // the row enter opens
			}
			if m.marked[g.ProjectID] {
				cursor[3] = '*' // marked for X
			}
			out = append(out, string(cursor)+strings.Join([]string{fmt.Sprintf("%-6s", sanitize.Line(g.AccessLevel)), sanitize.Line(g.ProjectName), flag}, "  "))
		}
		more(len(rc.Grants), maxRows)
	}
	for _, l := range m.access.Lines(th) {
		out = append(out, "  "+l)
	}

	cr := r.Created
	title(partCreated, "Created", cr.ProjectsSource, plural.Count(len(cr.Projects), "project"))
	for _, p := range cr.Projects[:min(len(cr.Projects), maxRows)] {
		files := "files: invalid"
		if p.FilesCount.Valid() {
			files = plural.Count(int(p.FilesCount), "file")
		}
		row("project", sanitize.Line(p.Name), th.Muted.Render(files))
	}
	more(len(cr.Projects), maxRows)
	ms := cr.MattersSource
	if !ms.Covered() {
		// the listing is read through the matters job, which only a
		// session given the write jobs holds
		fill := "`vaultdeck person` in a shell reads it"
		if m.env.Jobs != nil && m.env.Jobs.Matters != nil {
			fill = "r reads it"
		}
		out = append(out, "    "+th.Warn.Render("matters missing: "+ms.Missing)+" "+th.Muted.Render("· "+fill))
	} else {
		out = append(out, fmt.Sprintf("    %s %s", plural.Count(len(cr.Matters), "client matter"), th.Muted.Render("· "+ms.From+", "+age(ms.AsOf, now))))
		for _, c := range cr.Matters[:min(len(cr.Matters), maxRows)] {
			state := plural.Count(c.UserCount, "user") + ", " + plural.Count(c.TotalEvents, "event")
			if c.Deleted() {
				state = "deleted"
			}
			row("matter ", sanitize.Line(c.Name), sanitize.Line(c.Description), th.Muted.Render(state))
		}
		more(len(cr.Matters), maxRows)
	}

	d := r.Deleted
	title(partDeleted, "Deleted", d.Source, fmt.Sprintf("%d still in the recycle bin", len(d.Entries)))
	for _, e := range d.Entries[:min(len(d.Entries), maxRows)] {
		left, u := purge.Countdown(e.RecycleBinPurgedScheduledAt.Time, now)
		st := th.Muted
		switch u {
		case purge.WithinDay:
			st = th.Alarm
		case purge.WithinWeek:
			st = th.Warn
		}
		row(st.Render(fmt.Sprintf("purges in %-7s", left)), sanitize.Line(e.VaultProject.Name))
	}
	more(len(d.Entries), maxRows)

	a := r.Activity
	login := "no login in the mirror"
	if a.LastLogin != nil {
		login = "last login " + a.LastLogin.Time.UTC().Format(whenLayout) + " from " + sanitize.Line(a.LastLogin.IP)
	}
	title(partActivity, "Activity", a.Source, plural.Count(a.Total, "entry")+", "+login)
	if a.Covered() {
		var ips []string
		for _, ad := range a.Addresses[:min(len(a.Addresses), maxAddress)] {
			ip := sanitize.Line(ad.IP)
			if ad.New {
				ip = th.Warn.Render(ip + " (new)")
			}
			ips = append(ips, ip)
		}
		if len(a.Addresses) > maxAddress {
			ips = append(ips, fmt.Sprintf("+%d", len(a.Addresses)-maxAddress))
		}
		out = append(out, "    addresses: "+strings.Join(ips, ", "))
		out = append(out, "    7 days: "+tally(a.Last7), "    30 days: "+tally(a.Last30))
		for _, e := range a.Latest[:min(len(a.Latest), maxLatest)] {
			row(e.Time.UTC().Format(whenLayout), sanitize.Line(e.Type), th.Muted.Render(sanitize.Line(e.IP)))
		}
	}
	return out, starts
}

func tally(ts []person.TypeCount) string {
	if len(ts) == 0 {
		return "nothing"
	}
	parts := make([]string, 0, len(ts))
	for _, t := range ts {
		parts = append(parts, fmt.Sprintf("%s %d", sanitize.Line(t.Type), t.Count))
	}
	return strings.Join(parts, ", ")
}

// age is how old data of at is, as the other views say it.
func age(at, now time.Time) string {
	if at.IsZero() {
		return "age unknown"
	}
	d := now.Sub(at)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm old", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh old", int(d.Hours()))
	}
	return fmt.Sprintf("%dd old (%s)", int(d.Hours()/24), at.UTC().Format("2006-01-02"))
}
