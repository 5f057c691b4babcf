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
func (t *Table) SetRows(rows []Row) tea.Cmd { return t.SetSource(sliceRows(rows)) }

// Prepared is rows made ready off the event loop (the view's row builder
// ran in the command that fetched them, or the source was made there);
// applying them in Update only swaps slices in. Filter haystacks are not
// built here but by the first filter.
type Prepared struct {
	src RowSource
}

// Prepare wraps rows built off the event loop.
func Prepare(rows []Row) Prepared { return Prepared{src: sliceRows(rows)} }

// Len is the number of prepared rows.
func (p Prepared) Len() int {
	if p.src == nil {
		return 0
	}
	return p.src.Len()
}

// SetPrepared is SetRows for rows made ready by Prepare (or, for a source, off the event loop).
func (t *Table) SetPrepared(p Prepared) tea.Cmd {
	if p.src == nil {
		return t.SetSource(sliceRows(nil))
	}
	return t.SetSource(p.src)
}

// AppendPrepared is AppendRows for rows made ready by Prepare.
func (t *Table) AppendPrepared(p Prepared) tea.Cmd {
	if p.src == nil {
		return t.AppendRows(nil)
	}
	return t.AppendRows(materialized(p.src))
}

// AppendRows adds rows (the next server page) after the loaded ones.
func (t *Table) AppendRows(rows []Row) tea.Cmd {
	var keep string
	if r, ok := t.selectedIndex(); ok {
		keep = t.src.ID(r)
	}
	t.src = append(materialized(t.src), rows...) // hay now covers a prefix; completeHay fills the rest
	return t.reindex(keep)
}

func (t *Table) reindex(keepID string) tea.Cmd {
	t.gen++
	t.measure()
	t.order = make([]int, t.src.Len())
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
		if t.src.ID(r) == keepID {
			keep = r
			break
		}
	}
	t.restoreCursor(keep)
	return cmd
}

// haystack is what the filter searches: every cell, lower-cased once here
// so that each keystroke costs one substring scan per candidate row.
// A source's row gives its cells by Text: no Row (cells, sort keys and
// tones) is built just to be joined.
func haystack(src RowSource, r, cols int) string {
	if s, ok := src.(sliceRows); ok {
		return strings.ToLower(strings.Join(s[r].Cells, "\x00"))
	}
	var b strings.Builder
	for c := range cols {
		if c > 0 {
			b.WriteByte(0)
		}
		b.WriteString(src.Text(r, c))
	}
	return strings.ToLower(b.String())
}

// Matcher is a source that filters itself: Match returns the rows of
// cands (in their order) with a cell containing q, already lower-cased.
// A source shown by many tables at once (serve's sessions on one answer)
// keeps one set of haystacks for all of them instead of the table's own
// (about 125 bytes a row and table). Match may run off the event loop.
type Matcher interface {
	Match(cands []int, q string) []int
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
	if m, ok := t.src.(Matcher); ok {
		// the source keeps its own haystacks (shared by every table showing it)
		if len(cands) <= limit {
			t.acceptFilter(FilterResult{Owner: t.owner, Gen: t.gen, Query: q, Idx: m.Match(cands, q)})
			return nil
		}
		gen, owner := t.gen, t.owner
		return func() tea.Msg { return FilterResult{Owner: owner, Gen: gen, Query: q, Idx: m.Match(cands, q)} }
	}
	if len(cands) <= limit {
		t.hay = completeHay(t.hay, t.src, len(t.cols))
		t.acceptFilter(FilterResult{Owner: t.owner, Gen: t.gen, Query: q, Idx: filterRows(t.hay, cands, q)})
		return nil
	}
	// the source, hay and cands are never mutated in place (reloads give a
	// new source, appends write past the slice's length), so the command
	// may read them while the UI goes on; missing haystacks go into a new
	// slice.
	src, hay, gen, owner, cols := t.src, t.hay, t.gen, t.owner, len(t.cols)
	return func() tea.Msg {
		hay = completeHay(hay, src, cols)
		return FilterResult{Owner: owner, Gen: gen, Query: q, Idx: filterRows(hay, cands, q), Hay: hay}
	}
}

// completeHay returns the haystacks of every row: hay itself when it
// covers them all, else a new slice with the missing ones built. Haystacks
// are built on the first filter, not on load: a list nobody filters holds
// none (about 110 bytes a row).
func completeHay(hay []string, src RowSource, cols int) []string {
	n := src.Len()
	if len(hay) == n {
		return hay
	}
	full := make([]string, n)
	copy(full, hay)
	for i := len(hay); i < n; i++ {
		full[i] = haystack(src, i, cols)
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
	if n := t.src.Len(); len(res.Hay) == n && len(t.hay) < n {
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
		in := make([]bool, t.src.Len())
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
	// the keys live for this sort only: a sorted table keeps just its order
	var less func(a, b int) int
	if t.cols[c].Numeric {
		keys := make([]float64, t.src.Len())
		for i := range keys {
			keys[i] = t.src.Num(i, c)
		}
		less = func(a, b int) int { return cmp.Compare(keys[a], keys[b]) }
	} else {
		keys := make([]string, t.src.Len())
		for i := range keys {
			keys[i] = strings.ToLower(t.src.Text(i, c))
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
