package widgets

import (
	"cmp"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

// FilterResult is the outcome of an asynchronous filter run. It is
// addressed to the owning view; Gen and Query let the table drop results
// that a newer keystroke or a reload has made stale.
type FilterResult struct {
	Owner page.ID
	Gen   uint64
	Query string
	Idx   []int
}

// Target implements page.Scoped.
func (r FilterResult) Target() page.ID { return r.Owner }

// SetRows replaces the data. The sort and the filter stay; the cursor stays
// on the same ID when it is still there.
func (t *Table) SetRows(rows []Row) tea.Cmd {
	var keep string
	if r, ok := t.Selected(); ok {
		keep = r.ID
	}
	t.rows = rows
	t.hay = make([]string, len(rows))
	for i := range rows {
		t.hay[i] = haystack(rows[i].Cells)
	}
	return t.reindex(keep)
}

// Prepared is rows with their filter haystacks built: the costly part of
// SetRows, done by Prepare in a command so that a view applying 100,000
// rows blocks the event loop for no more than SetPrepared's reindex.
type Prepared struct {
	rows []Row
	hay  []string
}

// Prepare builds the haystacks of rows; safe to call off the event loop.
func Prepare(rows []Row) Prepared {
	hay := make([]string, len(rows))
	for i := range rows {
		hay[i] = haystack(rows[i].Cells)
	}
	return Prepared{rows: rows, hay: hay}
}

// Len is the number of prepared rows.
func (p Prepared) Len() int { return len(p.rows) }

// SetPrepared is SetRows for rows made ready by Prepare.
func (t *Table) SetPrepared(p Prepared) tea.Cmd {
	var keep string
	if r, ok := t.Selected(); ok {
		keep = r.ID
	}
	t.rows, t.hay = p.rows, p.hay
	return t.reindex(keep)
}

// AppendPrepared is AppendRows for rows made ready by Prepare.
func (t *Table) AppendPrepared(p Prepared) tea.Cmd {
	var keep string
	if r, ok := t.Selected(); ok {
		keep = r.ID
	}
	t.rows = append(t.rows, p.rows...)
	t.hay = append(t.hay, p.hay...)
	return t.reindex(keep)
}

// AppendRows adds rows (the next server page) after the loaded ones.
func (t *Table) AppendRows(rows []Row) tea.Cmd {
	var keep string
	if r, ok := t.Selected(); ok {
		keep = r.ID
	}
	t.rows = append(t.rows, rows...)
	for i := range rows {
		t.hay = append(t.hay, haystack(rows[i].Cells))
	}
	return t.reindex(keep)
}

func (t *Table) reindex(keepID string) tea.Cmd {
	t.gen++
	t.order = make([]int, len(t.rows))
	for i := range t.order {
		t.order[i] = i
	}
	if t.sortCol >= 0 {
		t.sortOrder()
	}
	t.shown = ""
	t.visible = t.order
	var cmd tea.Cmd
	if t.query != "" && !t.remote {
		q := t.query
		t.query = ""
		cmd = t.applyQuery(q)
	}
	keep := -1
	for _, r := range t.visible {
		if t.rows[r].ID == keepID {
			keep = r
			break
		}
	}
	t.restoreCursor(keep)
	return cmd
}

// haystack is what the filter searches: every cell, lower-cased once here
// so that each keystroke costs one substring scan per candidate row.
func haystack(cells []string) string {
	return strings.ToLower(strings.Join(cells, "\x00"))
}

// applyQuery filters to rows containing q (case-insensitive substring).
// When q extends the query the visible set reflects, only that set is
// searched: typing refines instead of rescanning everything.
func (t *Table) applyQuery(q string) tea.Cmd {
	q = strings.ToLower(q)
	t.query = q
	if t.remote {
		return nil
	}
	if q == "" {
		r := t.rowIndexAtCursor()
		t.visible, t.shown = t.order, ""
		t.restoreCursor(r)
		return nil
	}
	cands := t.order
	if t.shown != "" && strings.Contains(q, t.shown) {
		cands = t.visible
	}
	limit := t.AsyncAbove
	if limit <= 0 {
		limit = 20000
	}
	if len(cands) <= limit {
		t.acceptFilter(FilterResult{Owner: t.owner, Gen: t.gen, Query: q, Idx: filterRows(t.hay, cands, q)})
		return nil
	}
	// hay and cands are never mutated in place (reloads allocate new
	// slices), so the command may read them while the UI goes on.
	hay, gen, owner := t.hay, t.gen, t.owner
	return func() tea.Msg {
		return FilterResult{Owner: owner, Gen: gen, Query: q, Idx: filterRows(hay, cands, q)}
	}
}

func filterRows(hay []string, cands []int, q string) []int {
	out := make([]int, 0, len(cands)/4+1)
	for _, r := range cands {
		if strings.Contains(hay[r], q) {
			out = append(out, r)
		}
	}
	return out
}

func (t *Table) acceptFilter(res FilterResult) {
	if res.Gen != t.gen || res.Query != t.query {
		return // the data or the query moved on
	}
	r := t.rowIndexAtCursor()
	t.visible, t.shown = res.Idx, res.Query
	t.restoreCursor(r)
}

// Pending reports whether an asynchronous filter run has not reported yet.
func (t *Table) Pending() bool { return !t.remote && t.query != t.shown }

// SetSort sorts by column col (-1: the order rows arrived in).
func (t *Table) SetSort(col int, desc bool) {
	if col >= len(t.cols) {
		col = -1
	}
	t.sortCol, t.sortDesc = col, desc
	r := t.rowIndexAtCursor()
	if col < 0 {
		order := slices.Clone(t.order) // a filter command may still read the old slice
		slices.Sort(order)
		t.order = order
	} else {
		t.sortOrder()
	}
	if t.shown == "" {
		t.visible = t.order
	} else {
		// keep the filtered subset, in the new order: one pass, no re-search
		in := make([]bool, len(t.rows))
		for _, v := range t.visible {
			in[v] = true
		}
		vis := make([]int, 0, len(t.visible))
		for _, o := range t.order {
			if in[o] {
				vis = append(vis, o)
			}
		}
		t.visible = vis
	}
	t.restoreCursor(r)
}

// Sort reports the sort column (-1 for none) and direction.
func (t *Table) Sort() (col int, desc bool) { return t.sortCol, t.sortDesc }

// sortOrder sorts t.order by the sort column. It allocates a new slice so
// that a filter command still reading the old one is not disturbed.
func (t *Table) sortOrder() {
	c, desc := t.sortCol, t.sortDesc
	order := slices.Clone(t.order)
	var less func(a, b int) int
	if t.cols[c].Numeric {
		num := func(r int) float64 {
			if n := t.rows[r].Nums; c < len(n) {
				return n[c]
			}
			return 0
		}
		less = func(a, b int) int { return cmp.Compare(num(a), num(b)) }
	} else {
		keys := make([]string, len(t.rows))
		for i := range t.rows {
			if c < len(t.rows[i].Cells) {
				keys[i] = strings.ToLower(t.rows[i].Cells[c])
			}
		}
		less = func(a, b int) int { return strings.Compare(keys[a], keys[b]) }
	}
	slices.SortStableFunc(order, func(a, b int) int {
		v := less(a, b)
		if desc {
			v = -v
		}
		if v == 0 {
			return cmp.Compare(a, b)
		}
		return v
	})
	t.order = order
}
