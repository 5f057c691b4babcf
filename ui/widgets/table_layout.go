package widgets

import (
	"slices"

	"github.com/charmbracelet/x/ansi"
)

// measureSample is how many rows, spread evenly, the layout measures: the
// widths follow the data without a pass over 200,000 rows on a load.
const measureSample = 512

// measure takes each column's content width and common e-mail domain from
// a sample of the rows, then lays the columns out again. Live columns are
// not measured (their text follows the clock): they keep their Width.
func (t *Table) measure() {
	n := t.src.Len()
	t.need = make([]int, len(t.cols))
	t.typical = make([]int, len(t.cols))
	t.domain = make([]string, len(t.cols))
	step := max(n/measureSample, 1)
	var addrs []string
	var widths []int
	for c, col := range t.cols {
		if col.Live != nil || col.ExportOnly {
			continue
		}
		if col.Elide == ElideEmail {
			addrs = addrs[:0]
			for r := 0; r < n; r += step {
				addrs = append(addrs, t.src.Text(r, c))
			}
			t.domain[c] = commonDomain(addrs)
		}
		title := ansi.StringWidth(col.Title) // the header is read too ("deleted by", not "deleted…")
		widths = widths[:0]
		for r := 0; r < n; r += step {
			widths = append(widths, ansi.StringWidth(stripDomain(t.src.Text(r, c), t.domain[c])))
		}
		t.need[c], t.typical[c] = title, title
		if len(widths) > 0 {
			slices.Sort(widths)
			t.need[c] = max(title, widths[len(widths)-1])
			// what nine cells in ten need: the one long name of a bin
			// does not take a column from every row (layoutWidths)
			t.typical[c] = max(title, widths[(len(widths)*9+9)/10-1])
		}
	}
	t.relayout()
}

// relayout shares the table's width among the columns (layoutWidths).
func (t *Table) relayout() {
	if len(t.need) != len(t.cols) {
		t.need = make([]int, len(t.cols))
		t.typical = make([]int, len(t.cols))
		t.domain = make([]string, len(t.cols))
	}
	cols := t.cols
	if slices.Contains(t.fixed, true) {
		cols = slices.Clone(t.cols)
		for i := range cols {
			if i < len(t.fixed) && t.fixed[i] {
				cols[i].ExportOnly = true // drawn nowhere, written still
			}
		}
	}
	t.widths = layoutWidths(cols, t.need, t.typical, t.width-gutter)
}

// Fix hides column col while a filter or a grouping fixes its value (one
// deleter's entries: "deleted by" is the same on every row): the page says
// the value once, in its header, and the rows give the room to the
// others. The export still writes the column, so a file read alone says
// whose its rows are. Fix(col, false) shows it again.
func (t *Table) Fix(col int, on bool) {
	if col < 0 || col >= len(t.cols) {
		return
	}
	if len(t.fixed) != len(t.cols) {
		t.fixed = make([]bool, len(t.cols))
	}
	if t.fixed[col] != on {
		t.fixed[col] = on
		t.relayout()
	}
}

// Domain is the common e-mail domain column col drops from its rows ("":
// none), for a page that names it elsewhere too.
func (t *Table) Domain(col int) string {
	if col < 0 || col >= len(t.domain) {
		return ""
	}
	return t.domain[col]
}

// columnTitle is column i's header text: an e-mail column with a common
// domain names it ("deleted by @harrowgate-law.com") when both fit, else
// the info line does (domainNote): said once, dropped from the rows.
func (t *Table) columnTitle(i int) string {
	title := t.cols[i].Title
	if full, ok := t.titleWithDomain(i); ok {
		return full
	}
	return title
}

func (t *Table) titleWithDomain(i int) (string, bool) {
	d := t.domain[i]
	if d == "" {
		return "", false
	}
	full := t.cols[i].Title + " @" + d
	return full, ansi.StringWidth(full) <= t.widths[i]
}

// domainNote is the info line's "e-mails @domain" for a shown column whose
// header has no room for its common domain.
func (t *Table) domainNote() string {
	for i := range t.cols {
		if _, fits := t.titleWithDomain(i); t.domain[i] != "" && !fits && t.widths[i] > 0 {
			return "e-mails @" + t.domain[i]
		}
	}
	return ""
}

// windowCells is the visible rows' cells, column by column, cut to their
// widths (elideColumn: different cells stay different), with the tones.
func (t *Table) windowCells(rows []Row) (cells [][]string, tones [][]Tone) {
	cells = make([][]string, len(t.cols))
	tones = make([][]Tone, len(t.cols))
	col := make([]string, len(rows))
	for c, def := range t.cols {
		if t.widths[c] == 0 {
			continue
		}
		tones[c] = make([]Tone, len(rows))
		for r, row := range rows {
			col[r] = ""
			if c < len(row.Cells) {
				col[r] = row.Cells[c]
			}
			if c < len(row.Tones) {
				tones[c][r] = row.Tones[c]
			}
			if def.Live != nil {
				col[r], tones[c][r] = def.Live(row)
			}
			col[r] = stripDomain(col[r], t.domain[c])
		}
		cells[c] = elideColumn(col, t.widths[c], def.Elide)
	}
	return cells, tones
}

// Shown says whether column col is drawn at the table's width (the layout
// may hide it: a low column, an ID that does not fit whole).
func (t *Table) Shown(col int) bool {
	return col >= 0 && col < len(t.widths) && t.widths[col] > 0
}
