package printer

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/rule"
)

// rules are --filter TEXT and --sort COLUMN[,desc] (issue 42): the rows
// one of whose output record's cells (the CSV record: ui/csvsafe/rule)
// contains TEXT, ordered by one of its columns, in every format: the
// records --csv writes are the items --json, --jsonl, --jq and --template
// see. The console's `/` filter and sort are said with them when exact.
type rules struct {
	filter, sort string
	used         bool // a listing applied them (Finish refuses them unused)
}

// RuleFlags are the names of --filter and --sort: a saved view keeps
// them (they say which rows and in what order), unlike the format flags.
func RuleFlags() []string { return []string{"filter", "sort"} }

// RulesGiven says whether --filter or --sort was given (a function: the
// Printer has enough methods).
func RulesGiven(p *Printer) bool { return p.rules.set() }

func (r rules) set() bool { return r.filter != "" || r.sort != "" }

// filterHelp and sortHelp are the flags' help, said once.
const (
	filterHelp = "listings: keep the rows one of whose cells (as --csv writes them) contains `TEXT`, in any case, as the console's / filter; in every format, before --jq or --template; streams"
	sortHelp   = "listings: order the rows by a `COLUMN` of the --csv header (its name in any case, words joined by -: deleted-at), COLUMN,desc for the largest first; numbers as numbers, ties in the listing's order, in every format; holds the listing, up to --jq-hold"
)

// ruled is l with --filter and --sort applied: Keep also tests the
// record, and a sort replaces the listing's own order (the command's order
// is the tie-breaker). A column not in the header is a usage error, before
// any request.
func ruled[T any](p *Printer, l Listing[T]) (Listing[T], *rule.Sort, error) {
	if !p.rules.set() {
		return l, nil, nil
	}
	p.rules.used = true
	header, record := l.Headers, l.Cells
	if l.CSVCells != nil {
		header, record = l.CSVHeaders, l.CSVCells
	}
	if text := p.rules.filter; text != "" {
		keep := l.Keep
		l.Keep = func(e *T) bool { return (keep == nil || keep(e)) && rule.Match(record(e), text) }
	}
	if p.rules.sort == "" {
		return l, nil, nil
	}
	s, err := rule.ParseSort(p.rules.sort, header)
	if err != nil {
		return l, nil, usageError{err}
	}
	return l, &s, nil
}

// sortedItems is --sort: the kept items held with their own bytes and the
// cell they are ordered by, within --jq-hold's bound (the one bound on
// what a listing's shaping holds), sorted stably once read, then handed in
// order to the format's own sink as if they had arrived so.
type sortedItems[T any] struct {
	p      *Printer
	l      Listing[T]
	record func(*T) []string
	by     rule.Sort
	inner  rowSink[T]
	prog   *Progress
	items  []sortedItem[T]
	held   int64
	// rawOnly: the inner sink writes the items' own bytes (--json,
	// --jsonl, --jq, --template), so the decoded item is not held
	rawOnly bool
}

type sortedItem[T any] struct {
	heldItem[T]
	key string
}

func newSortedItems[T any](p *Printer, l Listing[T], by rule.Sort, inner rowSink[T], prog *Progress) *sortedItems[T] {
	record := l.Cells
	if l.CSVCells != nil {
		record = l.CSVCells
	}
	rawOnly := p.format() == JSON || p.format() == JSONL
	return &sortedItems[T]{p: p, l: l, record: record, by: by, inner: inner, prog: prog, rawOnly: rawOnly}
}

func (o *sortedItems[T]) item(e *T, it api.RawItem) error {
	o.prog.item()
	if o.l.Keep != nil && !o.l.Keep(e) {
		return nil
	}
	var key string
	if r := o.record(e); o.by.Col < len(r) {
		key = r[o.by.Col]
	}
	o.held += int64(len(it.Bytes) + len(key) + heldOverhead)
	if lim := o.p.jqHold.bytes(); o.held > lim {
		return fmt.Errorf("--sort holds the listing to order it, and its %s passed --jq-hold's %s after %s: raise --jq-hold, or narrow it with --filter or the command's own filters",
			humanize.IBytes(uint64(o.held)), humanize.IBytes(uint64(lim)), plural.Count(len(o.items), "row"))
	}
	h := sortedItem[T]{heldItem: heldItem[T]{raw: slices.Clone(it.Bytes), plain: it.Plain}, key: key}
	if !o.rawOnly {
		h.e = *e
	}
	o.items = append(o.items, h)
	return nil
}

// heldOverhead is what a held item costs beside its bytes: its struct
// and slice slot, roughly (as api's recordOverhead).
const heldOverhead = 200

func (o *sortedItems[T]) page() error { o.prog.page(); return nil }

func (o *sortedItems[T]) end(s api.Summary) error {
	slices.SortStableFunc(o.items, func(a, b sortedItem[T]) int {
		v := rule.Compare(a.key, b.key)
		if o.by.Desc {
			return -v
		}
		return v
	})
	items := o.items
	o.items = nil
	o.prog.Done()
	for i := range items {
		if err := o.inner.item(&items[i].e, api.RawItem{Bytes: items[i].raw, Plain: items[i].plain}); err != nil {
			return o.inner.failed(err)
		}
		items[i] = sortedItem[T]{} // written: let it go
	}
	return o.inner.end(s)
}

func (o *sortedItems[T]) failed(err error) error { return err } // nothing was written

func (o *sortedItems[T]) kept() int { return o.inner.kept() }

// ruledValue applies (functions, not methods: the Printer has enough) --filter and --sort to a Value's rows (and to its
// JSON, when that is a list of as many elements, one a row): a Value
// whose chosen form has no rows (a report's text, one object) refuses
// them, before anything is written.
func ruledValue(p *Printer, v Value) (Value, error) {
	if !p.rules.set() {
		return v, nil
	}
	jsonForm := (p.format() == JSON || p.format() == JSONL || !v.human()) && (v.JSON != nil || v.Raw != nil)
	rv := reflect.ValueOf(v.JSON)
	list := v.JSON != nil && (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array) && rv.Len() == len(v.Rows)
	switch {
	case v.Headers == nil:
		return v, usageError{fmt.Errorf("--filter and --sort apply to a listing's rows; this prints none as rows here (a report gives a part of it as rows with --csv)")}
	case jsonForm && !list:
		return v, usageError{fmt.Errorf("--filter and --sort apply to a listing's rows; its JSON is one object: use --csv (or the table)")}
	case !jsonForm && v.Text != nil && p.format() != CSV:
		return v, usageError{fmt.Errorf("--filter and --sort apply to a listing's rows; its text is no table: use --csv")}
	}
	p.rules.used = true
	idx := make([]int, 0, len(v.Rows))
	for i, r := range v.Rows {
		if rule.Match(r, p.rules.filter) {
			idx = append(idx, i)
		}
	}
	if p.rules.sort != "" {
		s, err := rule.ParseSort(p.rules.sort, v.Headers)
		if err != nil {
			return v, usageError{err}
		}
		slices.SortStableFunc(idx, func(a, b int) int { return s.Compare(v.Rows[a], v.Rows[b]) })
	}
	rows := make([][]string, len(idx))
	for i, r := range idx {
		rows[i] = v.Rows[r]
	}
	v.Rows = rows
	if list {
		out := reflect.MakeSlice(reflect.SliceOf(rv.Type().Elem()), len(idx), len(idx))
		for i, r := range idx {
			out.Index(i).Set(rv.Index(r))
		}
		v.JSON = out.Interface()
	}
	return v, nil
}

// unusedRules is Finish's check: --filter or --sort given to a command
// that printed no listing would otherwise be silently ignored.
func unusedRules(p *Printer, code int) int {
	if !p.rules.set() || p.rules.used || code != ExitOK {
		return code
	}
	p.Note("--filter and --sort apply to listings; this command printed none, so nothing was filtered or sorted")
	return ExitUsage
}

// ruledTable is a Result's Table (its header first, then its rows) through
// --filter (row by row, as they come) and --sort (held, within --jq-hold,
// then written in order) into row.
func ruledTable(p *Printer, table func(row func([]string) error) error, row func([]string) error) error {
	if !p.rules.set() {
		return table(row)
	}
	p.rules.used = true
	var header []string
	var by *rule.Sort
	var held [][]string
	var size int64
	err := table(func(cells []string) error {
		if header == nil {
			header = cells
			if p.rules.sort != "" {
				s, err := rule.ParseSort(p.rules.sort, header)
				if err != nil {
					return usageError{err}
				}
				by = &s
			}
			return row(cells)
		}
		if !rule.Match(cells, p.rules.filter) {
			return nil
		}
		if by == nil {
			return row(cells)
		}
		for _, c := range cells {
			size += int64(len(c))
		}
		if size += heldOverhead; size > p.jqHold.bytes() {
			return fmt.Errorf("--sort holds the rows to order them, and they passed --jq-hold's %s after %s: raise --jq-hold, or narrow them with --filter", humanize.IBytes(uint64(p.jqHold.bytes())), plural.Count(len(held), "row"))
		}
		held = append(held, slices.Clone(cells))
		return nil
	})
	if err != nil || by == nil {
		return err
	}
	slices.SortStableFunc(held, by.Compare)
	for _, cells := range held {
		if err := row(cells); err != nil {
			return err
		}
	}
	return nil
}
