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
	Hay   []string // the haystacks the command completed, kept for the next query
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
	t.rows, t.hay = rows, nil // haystacks are built by the first filter (completeHay)
	return t.reindex(keep)
}

// Prepared is rows made ready off the event loop (the view's row builder
// ran in the command that fetched them); applying them in Update only swaps
// slices in. Filter haystacks are not built here but by the first filter.
type Prepared struct {
	rows []Row
}

// Prepare wraps rows built off the event loop.
func Prepare(rows []Row) Prepared { return Prepared{rows: rows} }

// Len is the number of prepared rows.
func (p Prepared) Len() int { return len(p.rows) }

// SetPrepared is SetRows for rows made ready by Prepare.
func (t *Table) SetPrepared(p Prepared) tea.Cmd {
	var keep string
	if r, ok := t.Selected(); ok {
		keep = r.ID
	}
	t.rows, t.hay = p.rows, nil
	return t.reindex(keep)
}

// AppendPrepared is AppendRows for rows made ready by Prepare.
func (t *Table) AppendPrepared(p Prepared) tea.Cmd {
	var keep string
	if r, ok := t.Selected(); ok {
		keep = r.ID
	}
	t.rows = append(t.rows, p.rows...)
	return t.reindex(keep)
}

// AppendRows adds rows (the next server page) after the loaded ones.
func (t *Table) AppendRows(rows []Row) tea.Cmd {
	var keep string
	if r, ok := t.Selected(); ok {
		keep = r.ID
	}
	t.rows = append(t.rows, rows...) // hay now covers a prefix; completeHay fills the rest
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
		t.hay = completeHay(t.hay, t.rows)
		t.acceptFilter(FilterResult{Owner: t.owner, Gen: t.gen, Query: q, Idx: filterRows(t.hay, cands, q)})
		return nil
	}
	// rows, hay and cands are never mutated in place (reloads allocate new
	// slices, appends write past their length), so the command may read
	// them while the UI goes on; missing haystacks go into a new slice.
	rows, hay, gen, owner := t.rows, t.hay, t.gen, t.owner
	return func() tea.Msg {
		hay = completeHay(hay, rows)
		return FilterResult{Owner: owner, Gen: gen, Query: q, Idx: filterRows(hay, cands, q), Hay: hay}
	}
}

// completeHay returns the haystacks of every row: hay itself when it
// covers them all, else a new slice with the missing ones built. Haystacks
// are built on the first filter, not on load: a list nobody filters holds
// none (about 110 bytes a row).
func completeHay(hay []string, rows []Row) []string {
	if len(hay) == len(rows) {
		return hay
	}
	full := make([]string, len(rows))
	copy(full, hay)
	for i := len(hay); i < len(rows); i++ {
		full[i] = haystack(rows[i].Cells)
	}
	return full
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
	if len(res.Hay) == len(t.rows) && len(t.hay) < len(t.rows) {
		t.hay = res.Hay // built in the filter's command
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
