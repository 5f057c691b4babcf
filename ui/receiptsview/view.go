package receiptsview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Columns are `vaultdeck access receipts`' columns, in its order.
func Columns() []widgets.Column {
	return []widgets.Column{
		{Title: "job", Width: 5, Align: widgets.AlignRight, Numeric: true, Priority: 9},
		{Title: "started", Width: 16, Priority: 5},
		{Title: "status", Width: 10, Priority: 8},
		{Title: "done", Width: 5, Align: widgets.AlignRight, Numeric: true, Priority: 7},
		{Title: "failed", Width: 6, Align: widgets.AlignRight, Numeric: true, Priority: 7},
		{Title: "not settled", Width: 11, Align: widgets.AlignRight, Numeric: true, Priority: 6},
		{Title: "undoes", Width: 6, Align: widgets.AlignRight, Priority: 4},
		{Title: "by", Width: 20, Grow: 1, Min: 8, Priority: 3},
	}
}

// Rows are the jobs, one row each, keyed by the job's number; row i is
// job i (the export's records are taken by index).
func Rows(jobs []store.WriteJob) []widgets.Row {
	out := make([]widgets.Row, len(jobs))
	for i := range jobs {
		j := &jobs[i]
		rec := records.AccessJob(j) // the table shows the record, its time short
		rec[1] = j.CreatedAt.UTC().Format("2006-01-02 15:04")
		rec[7] = sanitize.Line(rec[7])
		c := records.CountsOf(j)
		out[i] = widgets.Row{ID: rec[0], Cells: rec,
			Nums: []float64{float64(j.ID), 0, 0, float64(c.Done), float64(c.Failed), float64(c.Open), 0, 0}}
	}
	return out
}

// View implements page.Page.
func (m *Model) View() string {
	if v, ok := m.flow.View(m.env.Theme, m.Width, m.Height); ok {
		return v
	}
	th := m.env.Theme
	if m.receipt != nil && m.receipt.Job.Kind != "" {
		return m.clip(ReceiptLines(m.receipt))
	}
	head := th.Title.Render("Access jobs")
	switch {
	case m.err != nil:
		return head + " " + th.Error.Render(sanitize.Line(m.err.Error()))
	case !m.loaded:
		return head + " " + th.Muted.Render("reading the journal…")
	case len(m.jobs) == 0:
		return head + " " + th.Muted.Render("no access job yet: :person's X and a project's Users tab make them")
	}
	return head + " " + th.Muted.Render(plural.Count(len(m.jobs), "job")+" · enter: receipt · U: undo") + "\n" + m.Table.View()
}

// clip wraps the lines to the page's width (a label and its level before
// are what a receipt is read for: never cut) and keeps the rows the page
// has room for, saying how many it left out.
func (m *Model) clip(lines []string) string {
	if m.Width > 0 {
		var wrapped []string
		for _, l := range lines {
			wrapped = append(wrapped, strings.Split(ansi.Wrap(l, m.Width, " "), "\n")...)
		}
		lines = wrapped
	}
	if h := m.Height; h > 1 && len(lines) > h {
		lines = append(lines[:h-1], ansi.Truncate(fmt.Sprintf("… %s: `vaultdeck access receipts %d` prints them all", plural.Count(len(lines)-h+1, "more line"), m.receipt.Job.ID), max(m.Width, 20), "…"))
	}
	return strings.Join(lines, "\n")
}

// ReceiptLines are a job's receipt as `vaultdeck access receipts N` prints
// it: the job, each change with its state, outcome and level before, and
// what undid it. The service's audit entries are the command's to show
// (they are read from the audit mirror, which the command syncs).
func ReceiptLines(rc *writejob.Receipt) []string {
	out := []string{fmt.Sprintf("access job %d  %s  by %s", rc.Job.ID, rc.Job.Status, sanitize.Line(writejob.Who(rc.Job)))}
	if rc.Job.UndoOf != 0 {
		out = append(out, fmt.Sprintf("undoes    job %d", rc.Job.UndoOf))
	}
	for _, it := range rc.Items {
		line := fmt.Sprintf("  %-8s %-8s %s", it.State, dash(it.Outcome), sanitize.Line(it.Label))
		if it.Previous != "" {
			line += "  (was " + sanitize.Line(it.Previous) + ")"
		}
		if it.Detail != "" {
			line += "  " + sanitize.Line(it.Detail)
		}
		out = append(out, line)
	}
	if len(rc.UndoneBy) > 0 {
		out = append(out, fmt.Sprintf("undone by job %d", rc.UndoneBy[len(rc.UndoneBy)-1]))
	}
	return append(out, "", fmt.Sprintf("the service's audit entries for it: `vaultdeck access receipts %d`", rc.Job.ID))
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
