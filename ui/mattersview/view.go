package mattersview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/charmbracelet/lipgloss"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// headLines is how many lines the mode's summary takes above its table.
func (m *Model) headLines() int { return len(m.head()) }

// head is the mode's summary, one string per line, already sanitized.
func (m *Model) head() []string {
	th := m.env.Theme
	switch m.mode {
	case modeList:
		hint := "  n open a file to delete its pairs"
		if len(m.list) > 0 { // enter is named only with a receipt to open
			hint += " · enter open a receipt"
		}
		return []string{th.Title.Render("Matter receipts") + th.Muted.Render(hint)}
	case modePreview:
		return m.previewHead()
	case modeReceipt:
		return m.receiptHead()
	}
	return nil
}

func (m *Model) previewHead() []string {
	th, f, p := m.env.Theme, m.file, m.plan
	hdr := "no header: first two columns"
	if f.Header {
		hdr = "header"
	}
	lines := []string{
		th.Title.Render("Preview of "+sanitize.Line(m.fileName)) + th.Muted.Render(fmt.Sprintf("  %s, %s, %s · nothing sent yet", f.Encoding, f.Describe(), hdr)),
		fmt.Sprintf("%s · %d to send in %s of at most %d · %s", plural.Count(len(p.Pairs), "pair"), len(p.Send), plural.Count(p.Requests(), "request"), api.MaxPairs, minTime(p)),
	}
	if len(f.Ignored) > 0 {
		lines = append(lines, th.Muted.Render("ignored columns: "+sanitize.Line(strings.Join(f.Ignored, ", "))))
	}
	if n := p.RejectedCount(); n > 0 {
		var parts []string
		for code, c := range p.CodeCounts() {
			parts = append(parts, fmt.Sprintf("%s %d", code, c))
		}
		slices.Sort(parts)
		lines = append(lines, th.Warn.Render(fmt.Sprintf("%d refused before sending (%s), listed below", n, strings.Join(parts, ", "))))
	} else {
		lines = append(lines, th.OK.Render("no pair is refused by the client's checks"))
	}
	for _, e := range m.earlier {
		lines = append(lines, th.Warn.Render("earlier: "+sanitize.Line(e)))
	}
	if m.earlierErr != nil {
		lines = append(lines, th.Warn.Render("earlier receipts not known: "+sanitize.Line(m.earlierErr.Error())))
	}
	k := m.env.Keys
	lines = append(lines, th.Muted.Render(fmt.Sprintf("%s delete (you will type %d) · %s another file · esc back", k.RunDelete.Help().Key, len(p.Send), k.OpenFile.Help().Key)))
	return wrapLines(lines, m.width)
}

// wrapLines wraps each line to width (at spaces, styles kept): the plan's
// line ran past 80 columns and the terminal cut it. The table below takes
// what the wrapped lines leave (headLines counts them).
func wrapLines(lines []string, width int) []string {
	if width <= 0 {
		return lines
	}
	var out []string
	for _, l := range lines {
		out = append(out, strings.Split(ansi.Wrap(l, width, ""), "\n")...)
	}
	return out
}

// minTime is the least time the rate limit allows for the plan.
func minTime(p *matters.Plan) string {
	switch d := p.MinDuration(); {
	case p.PerMinute >= 1<<30:
		return "no client-side rate limit"
	case d == 0:
		return fmt.Sprintf("under a minute at %s a minute", plural.Count(p.PerMinute, "request"))
	default:
		return fmt.Sprintf("at least %s at %s a minute (shared with everything using this token)", d, plural.Count(p.PerMinute, "request"))
	}
}

func (m *Model) receiptHead() []string {
	th, r := m.env.Theme, m.receipt
	what := r.Action
	if r.RestoreOf != 0 {
		what = fmt.Sprintf("restore of receipt %d", r.RestoreOf)
	}
	status := matters.Status(r)
	if r.Note != "" {
		status += " (" + sanitize.Line(r.Note) + ")"
	}
	filter := "all outcomes"
	if m.result != "" {
		filter = m.result
	}
	if m.code != "" {
		filter += ", code " + sanitize.Line(m.code)
	}
	lines := []string{
		th.Title.Render(fmt.Sprintf("Receipt %d", r.ID)) + th.Muted.Render(fmt.Sprintf("  %s · %s · sha256 %.12s… · %s",
			what, sanitize.Line(r.FileName), r.FileSHA256, r.StartedAt.UTC().Format("2006-01-02 15:04 UTC"))),
		// who ran it beyond the token's owner, last: the first to go when cut
		ansi.Truncate(fmt.Sprintf("%s: %s · %s · run by %s", plural.Count(r.Pairs, "pair"), countsText(r.Counts), status,
			sanitize.Line(writejob.Local(r.ActorOSUser, r.ActorKey))), max(m.width, 1), "…"),
		th.Muted.Render(fmt.Sprintf("showing %s · f outcome · t error code · enter whole detail", filter)),
		ansi.Truncate(sanitize.Line(m.audit), max(m.width, 1), "…"),
	}
	if m.matched > len(m.items) {
		lines[2] += th.Warn.Render(fmt.Sprintf(" · the first %d of %d: filter, or `vaultdeck matters receipt %d --export csv` for all",
			len(m.items), m.matched, r.ID))
	}
	if r.Action == "delete" && r.Counts["deleted"] > 0 {
		lines[2] += th.Muted.Render(" · " + m.env.Keys.Restore.Help().Key + " restore the deleted")
	}
	// what re-running the file would do now: a warning once a restore has
	// brought matters back that a re-run would delete again
	if rerun := matters.Rerun(r); rerun != "" {
		style := th.Muted
		if rs := r.Restored; rs.Lines-rs.Again+rs.InFlight > 0 {
			style = th.Warn
		}
		lines = append(lines[:2], append([]string{style.Render(ansi.Truncate(sanitize.Line(rerun), max(m.width, 1), "…"))}, lines[2:]...)...)
	}
	return lines
}

// View implements page.Page.
func (m *Model) View() string {
	th := m.env.Theme
	if !m.env.Keys.MattersAvailable() {
		if !m.env.ReadOnly {
			return th.Warn.Render("The matters view deletes client matters, so it is not available in a session opened without the matter job.")
		}
		return th.Warn.Render("The matters view deletes client matters, so it is not available in a read-only session.")
	}
	if m.confirm != nil {
		return th.Renderer.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, m.confirm.ViewSized(m.width, m.height))
	}
	switch m.mode {
	case modePath:
		return m.pathView()
	case modeRun:
		return m.runView()
	}
	return strings.Join(append(m.head(), m.table().View()), "\n")
}

func (m *Model) pathView() string {
	th := m.env.Theme
	lines := []string{th.Title.Render("Open a matter file"),
		th.Muted.Render("CSV or TSV, UTF-8 or UTF-16, a header naming client_id and matter_id or none · tab completes · enter reads · esc back"),
		"", m.path.View()}
	if m.pathErr != "" {
		lines = append(lines, th.Warn.Render(m.pathErr))
	}
	for i, c := range m.matches {
		if i == maxShown {
			lines = append(lines, th.Muted.Render(fmt.Sprintf("  … and %d more", len(m.matches)-maxShown)))
			break
		}
		lines = append(lines, "  "+sanitize.Line(c))
	}
	return strings.Join(wrapLines(lines, m.width), "\n")
}

func (m *Model) runView() string {
	th := m.env.Theme
	p, _, done := m.run.snapshot()
	verb := "Deleting"
	if m.run.action == "restore" {
		verb = "Restoring"
	}
	line := "waiting for the first answer…"
	if p.Requests > 0 {
		line = fmt.Sprintf("request %d of %d answered · %d of %s sent", p.Request, p.Requests, p.Sent, plural.Count(p.ToSend, "pair"))
	}
	lines := []string{th.Title.Render(verb + " client matters"), line}
	if w := m.run.waiting(); w != "" && !done {
		lines = append(lines, th.Warn.Render(sanitize.Line(w)))
	}
	switch {
	case done:
		lines = append(lines, th.Muted.Render("finished; opening the receipt…"))
	case m.run.stopped:
		lines = append(lines, th.Warn.Render("stopping after the request on the wire…"))
	default:
		lines = append(lines, th.Muted.Render(m.env.Keys.CancelRun.Help().Key+" cancel (between requests; at once while waiting for the rate limit) · the run goes on if you leave this view"))
	}
	return strings.Join(wrapLines(lines, m.width), "\n")
}
