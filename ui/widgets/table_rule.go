package widgets

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vaultdeck/vaultdeck/ui/csvsafe/rule"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// SayExact is Say for a table whose rows ex writes as its command's
// records (ex: the view's ExportTable, as e writes it): a `/` filter is
// said as --filter when the command's rule (ui/csvsafe/rule, over each
// record) keeps exactly the rows shown, and a sort as --sort when the
// rule orders them exactly as shown (a column of the record named as the
// table's, compared as the rule compares). What the flags would not
// reproduce (a cell reading "3 days ago" where the record holds a time, a
// column the record has not) stays in Unsaid or Order, as Say says it:
// the command is exact or says what it leaves out (issue 42).
func (t *Table) SayExact(q *page.Query, col int, desc bool, ex TableExport) {
	text := t.Filter()
	c, d := t.Sort()
	sorted := c >= 0 && (c != col || d != desc) && c < len(t.cols)
	n := t.src.Len()
	if text == "" && !sorted {
		return
	}
	if t.Pending() || ex.src == nil || ex.src.Len() != n || !slices.Equal(ex.rows, t.visible) || (ex.record == nil && ex.cols == nil) {
		t.Say(q, col, desc) // not this table's rows as shown: nothing to check against
		return
	}
	recs := make([][]string, n)
	for i := range n {
		recs[i] = ex.Record(i)
	}
	if !sorted {
		// the command's order is the table's (col): the rows it keeps, in it
		var kept []int
		for _, i := range t.order {
			if rule.Match(recs[i], text) {
				kept = append(kept, i)
			}
		}
		if slices.Equal(kept, t.visible) {
			q.With("filter", text)
		} else {
			t.sayInexact(q)
		}
		return
	}
	// --sort replaces the command's order; ties keep the listing's, the
	// table's source order, as the table breaks its ties
	var kept []int
	for i := range n {
		if rule.Match(recs[i], text) {
			kept = append(kept, i)
		}
	}
	if !sameSet(kept, t.visible) {
		t.sayInexact(q)
		t.SayOrder(q, col, desc)
		return
	}
	q.With("filter", text)
	t.saySort(q, col, desc, kept, recs, ex.Header())
}

// SaySortExact is SayExact's sort alone, for a view that says what narrows
// its rows with a flag of its own (the bin's --name, asked of the
// service): the rows shown are the command's, in the listing's order, and
// the sort is said as --sort when the rule orders them as shown, else in
// Order.
func (t *Table) SaySortExact(q *page.Query, col int, desc bool, ex TableExport) {
	c, d := t.Sort()
	if c < 0 || (c == col && d == desc) || c >= len(t.cols) {
		return
	}
	n := t.src.Len()
	if t.Pending() || ex.src == nil || ex.src.Len() != n || !slices.Equal(ex.rows, t.visible) || (ex.record == nil && ex.cols == nil) {
		t.SayOrder(q, col, desc)
		return
	}
	recs := make([][]string, n)
	for i := range n {
		recs[i] = ex.Record(i)
	}
	t.saySort(q, col, desc, slices.Sorted(slices.Values(t.visible)), recs, ex.Header())
}

// saySort says the table's sort as --sort when the rule, ordering kept
// (source indexes, in the listing's order) by a record column named as
// the sorted one, gives the rows as shown; else in Order.
func (t *Table) saySort(q *page.Query, col int, desc bool, kept []int, recs [][]string, header []string) {
	c, d := t.Sort()
	for j := range header {
		if !t.names(c, header[j]) {
			continue
		}
		by := rule.Sort{Col: j, Desc: d}
		order := slices.Clone(kept)
		slices.SortStableFunc(order, func(a, b int) int { return by.Compare(recs[a], recs[b]) })
		if slices.Equal(order, t.visible) {
			q.With("sort", rule.Spell(header, j, d))
			return
		}
	}
	t.SayOrder(q, col, desc)
}

// sayInexact names a / filter that --filter would not reproduce, and why.
func (t *Table) sayInexact(q *page.Query) {
	q.Unsaid = append(q.Unsaid, fmt.Sprintf("the / filter %q: --filter keeps other rows, as it reads the cells as --csv writes them (a time in full, not as drawn here)", t.Filter()))
}

// names says whether a record's column title names table column c (the
// same words, in any case, a bracketed note aside).
func (t *Table) names(c int, title string) bool {
	n := rule.Name(title)
	col := t.cols[c]
	// a countdown ("purge in") sorts by the time its ExportAt column writes
	return n != "" && (n == rule.Name(col.Title) || n == rule.Name(col.ExportTitle) || n == rule.Name(col.ExportAt) || n == rule.Name(col.Record))
}

func sameSet(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// TakeRules splits a saved view's --filter and --sort (what SayExact
// said) from its other flags, for its view's FromQuery.
func TakeRules(flags []page.Flag) (rest []page.Flag, filter, sort string) {
	for _, f := range flags {
		switch f.Name {
		case "filter":
			filter = f.Value
		case "sort":
			sort = f.Value
		default:
			rest = append(rest, f)
		}
	}
	return rest, filter, sort
}

// ApplyRules shows the table as a saved view's --filter and --sort say:
// the filter as if typed, the sort on the column of that name. A column
// the table has not is refused, naming it.
func (t *Table) ApplyRules(filter, sort string) error {
	if sort != "" {
		name, dir, _ := strings.Cut(sort, ",")
		c := -1
		for i := range t.cols {
			if t.names(i, name) {
				c = i
				break
			}
		}
		if c < 0 || (dir != "" && dir != "asc" && dir != "desc") {
			return fmt.Errorf("the console's table has no column %q to sort by; run the view headless with vaultdeck view", sort)
		}
		t.SetSort(c, dir == "desc")
	}
	if filter != "" {
		t.input.SetValue(filter)
		_ = t.applyQuery(filter) // before the rows: they are filtered as they come (reindex)
	}
	return nil
}
