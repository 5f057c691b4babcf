package activityview

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// tones of the histogram's columns (Bars' palette).
const (
	tonePlain = iota
	toneSelected
	toneBurst
	toneMark
)

// View draws the header, the histogram with its axis, the selection, the
// top lists and the marks, within the view's area.
func (m *Model) View() string {
	th := m.env.Theme
	w, h := max(m.w, 20), max(m.h, 8)
	if m.stats == nil {
		switch {
		case errors.Is(m.err, audit.ErrNoMirror):
			hint := m.env.ChoreHint(page.ChoreSyncAudit)
			then := " (or open :audit, which syncs it in the background), then r here."
			if m.env.Chores.Has(page.ChoreSyncAudit) {
				then = "; the view counts the mirror when it ends."
			}
			return widgets.FitHeight(th.Muted.Render(wrap("Activity is counted from the local audit mirror, and there is none yet. "+
				strings.ToUpper(hint[:1])+hint[1:]+then, w)), h)
		case m.err != nil:
			return widgets.FitHeight(th.Error.Render(wrap(sanitize.Line(m.err.Error()), w)), h)
		}
		return widgets.FitHeight(th.Muted.Render("reading the local audit mirror…"), h)
	}
	s := m.stats
	by := "hourly"
	if s.By >= 24*time.Hour {
		by = "daily"
	}
	what := "entries"
	if s.Type != "" {
		what = sanitize.Line(s.Type)
	}
	var out []string
	out = append(out, cut(th.Title.Render("Activity ")+th.Muted.Render(fmt.Sprintf("%s–%s UTC · %s · %s %s · mirror %s",
		s.Since.Format("01-02 15:04"), s.Until.Format("01-02 15:04"), by, humanize.Comma(int64(s.Counted)), what, m.mirror.Last.Format("01-02 15:04"))), w))
	barH := min(max(h/4, 3), 10)
	out = append(out, m.histogram(w, barH)...)
	out = append(out, cut(m.selection(), w))
	rest := h - len(out)
	topRows := min(audit.TopN, max((rest-3)/2, 1))
	out = append(out, m.tops(w, topRows)...)
	out = append(out, m.marks(w, h-len(out))...)
	return widgets.FitHeight(strings.Join(out, "\n"), h)
}

// focusBar is the bar the window of bars is kept around: the selected
// mark's while the marks are selected, so its ▲ is on screen, else the
// selected bar.
func (m *Model) focusBar() int {
	if m.onMarks && m.mark < len(m.stats.Marks) {
		if i := m.bucketOf(m.stats.Marks[m.mark].Start); i >= 0 {
			return i
		}
	}
	return m.bar
}

// histogram is the bars (a window of them around the selection when they
// are more than the width), the axis with the marks, and the labels.
func (m *Model) histogram(w, height int) []string {
	th := m.env.Theme
	bs := m.stats.Buckets
	off := 0
	if len(bs) > w {
		off = min(max(m.focusBar()-w/2, 0), len(bs)-w)
	}
	n := min(len(bs), w)
	counts := make([]int, n)
	for i := range n {
		counts[i] = bs[off+i].Count
	}
	tone := func(i int) int {
		switch {
		case off+i == m.bar && !m.onMarks:
			return toneSelected
		case m.markedBars[off+i] == audit.MarkBurst:
			return toneBurst
		}
		return tonePlain
	}
	lines := Bars(counts, height, tone, []lipgloss.Style{th.OK, th.SelectedRow, th.Alarm, th.Warn})
	var axis, labels strings.Builder
	for i := range n {
		switch k := m.markedBars[off+i]; {
		case k == audit.MarkBurst:
			axis.WriteString(th.Alarm.Render("▲"))
		case k != "":
			axis.WriteString(th.Warn.Render("•"))
		case off+i == m.bar:
			axis.WriteString(th.Title.Render("^"))
		default:
			axis.WriteString(th.Muted.Render("─"))
		}
	}
	lines = append(lines, axis.String())
	// a label at each day (hour bars) or each week (day bars), where it fits
	col := 0
	for i := range n {
		b := bs[off+i].Start
		first := i == 0
		if !first && ((m.stats.By < 24*time.Hour && b.Hour() != 0) || (m.stats.By >= 24*time.Hour && b.Weekday() != time.Monday)) {
			continue
		}
		label := b.Format("01-02")
		if i < col || i+len(label) > n {
			continue
		}
		labels.WriteString(strings.Repeat(" ", i-col) + label)
		col = i + len(label) + 1
		labels.WriteString(" ")
	}
	lines = append(lines, th.Muted.Render(labels.String()))
	return lines
}

// selection says what enter opens.
func (m *Model) selection() string {
	th := m.env.Theme
	if m.onMarks && m.mark < len(m.stats.Marks) {
		mk := m.stats.Marks[m.mark]
		return th.Title.Render(fmt.Sprintf("mark %d of %d", m.mark+1, len(m.stats.Marks))) +
			th.Plain.Render(fmt.Sprintf(" %s entries", humanize.Comma(int64(mk.Count)))) + th.Muted.Render(" · enter lists them · tab: the bars")
	}
	if len(m.stats.Buckets) == 0 {
		return ""
	}
	b := m.stats.Buckets[m.bar]
	layout := "01-02 15:04"
	end := b.End.Format("15:04")
	if b.End.YearDay() != b.Start.YearDay() {
		end = b.End.Format(layout)
	}
	return th.Title.Render(b.Start.Format(layout)+"–"+end) +
		th.Plain.Render(fmt.Sprintf(" %s entries", humanize.Comma(int64(b.Count)))) +
		th.Muted.Render(" · ←/→ a bar · enter lists them · tab: the marks")
}

// tops is the three top lists side by side.
func (m *Model) tops(w, rows int) []string {
	th := m.env.Theme
	colW := (w - 2) / 3
	lists := [][]audit.Tally{m.stats.Users, m.stats.IPs, m.stats.Types}
	head := ""
	for i, t := range []string{"TOP USERS", "TOP ADDRESSES", "TOP TYPES"} {
		head += th.TableHeader.Render(pad(t, colW))
		if i < 2 {
			head += " "
		}
	}
	out := []string{cut(head, w)}
	for r := range rows {
		line := ""
		for i, l := range lists {
			cell := ""
			if r < len(l) {
				num := humanize.Comma(int64(l[r].Count))
				name := ansi.Truncate(sanitize.Line(l[r].Name), max(colW-len(num)-1, 1), "…")
				cell = name + strings.Repeat(" ", max(colW-ansi.StringWidth(name)-len(num), 1)) + num
			}
			line += th.Plain.Render(pad(cell, colW))
			if i < 2 {
				line += " "
			}
		}
		out = append(out, cut(line, w))
	}
	return out
}

// marks lists what stands out, the selected one highlighted, scrolled to
// keep it in view.
func (m *Model) marks(w, rows int) []string {
	th := m.env.Theme
	if rows <= 0 {
		return nil
	}
	ms := m.stats.Marks
	head := th.TableHeader.Render(fmt.Sprintf("MARKS (%d)", len(ms)+m.stats.MoreMarks))
	if len(ms) == 0 {
		return []string{head + th.Muted.Render(" nothing stands out")}
	}
	out := []string{head}
	n := rows - 1
	off := 0
	if m.mark >= n {
		off = m.mark - n + 1
	}
	for i := off; i < len(ms) && i < off+n; i++ {
		mk := ms[i]
		kind := th.Warn.Render(pad(string(mk.Kind), 11))
		if mk.Kind == audit.MarkBurst {
			kind = th.Alarm.Render(pad(string(mk.Kind), 11))
		}
		text := ansi.Truncate(sanitize.Line(mk.Start.Format("01-02 15:04")+"  "+mk.Why), max(w-12, 1), "…")
		if m.onMarks && i == m.mark {
			out = append(out, th.SelectedRow.Render(pad(string(mk.Kind), 11)+" "+pad(text, w-12)))
			continue
		}
		out = append(out, kind+" "+th.Plain.Render(text))
	}
	return out
}

func pad(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
}

func cut(s string, w int) string { return ansi.Truncate(s, w, "…") }

// wrap breaks text at spaces to lines of at most w columns.
func wrap(text string, w int) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && ansi.StringWidth(line)+1+ansi.StringWidth(word) > w {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return strings.Join(append(lines, line), "\n")
}
