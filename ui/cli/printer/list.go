package printer

import (
	"context"
	"io"
	"reflect"

	"github.com/vaultdeck/vaultdeck/api"
)

// Stream is a listing as the api hands it (api.Listing), page by page:
// each item as the service sent it (Raw), or decoded as well (Each, with
// the item's own bytes). page is called after each page's last item and
// before the next page is asked for; the Summary is what the service said
// of the whole (its total, before any local keep). List reads it once.
type Stream[T any] interface {
	Raw(ctx context.Context, fn func(api.RawItem) error, page func() error) (api.Summary, error)
	Each(ctx context.Context, fn func(*T, api.RawItem) error, page func() error) (api.Summary, error)
}

// Listing is how a listing shows, in every format at once: the command
// says it all, and the printer picks.
type Listing[T any] struct {
	// Headers and Cells are the table's and the CSV's columns (Cells
	// formats with the printer's Cells, so a time is RFC 3339 in a CSV).
	Headers []string
	Cells   func(*T) []string
	// CSVHeaders and CSVCells, when set, are the CSV's columns instead:
	// the listing's one record (ui/csvsafe/records), which the console's
	// export writes too.
	CSVHeaders []string
	CSVCells   func(*T) []string
	// Keep, when set, keeps only some items, in every format (the JSON
	// then decodes each item too); nil keeps all, and --json reads none.
	Keep func(*T) bool
	// Sort, when set, orders the table: its rows are held (bounded:
	// api.Held), sorted and aligned in two passes. nil: the table is
	// written page by page, aligned on the header and first page. The
	// CSV and the JSON keep the service's order either way, unless SortAll.
	Sort func(a, b *T) int
	// SortAll makes Sort every format's order, not the table's alone:
	// the kept items are held (bounded: api.Held) and sorted before any
	// is written, in --json, --jsonl, --csv, --jq and --template too. For
	// a listing whose order is what it says (the bin within a purge
	// window: soonest first) and whose kept part is short.
	SortAll bool
	// Held holds the table's rows without sorting them, to align them on
	// all of them as text/tabwriter did (a short listing read whole).
	Held bool
	// Open and Close are what precedes and follows the JSON array's items
	// (default "[" and "]": `{"items":[` and `],"total":N}` for an
	// envelope); kept is the number of items printed. --jsonl and
	// --jq/--template have the items alone.
	Open  string
	Close func(s api.Summary, kept int) string
	// Head and Foot are the table's text above and under its rows (a
	// probe's summary, a count line); not part of a CSV or JSON.
	Head, Foot func(w io.Writer, s api.Summary, kept int) error
}

// Listed is what List printed.
type Listed struct {
	api.Summary
	Kept int // items printed (kept, when Keep is set)
}

// List prints the stream as the chosen format wants it, reading it once:
// JSON items as the service sent them, each as it arrives; CSV records and
// table rows page by page (or held and sorted, with Sort). The opening of
// an array or a table's header is written with the first item, never
// before. An error after some items were written says how many (Partial).
func List[T any](ctx context.Context, p *Printer, s Stream[T], l Listing[T]) (Listed, error) {
	if p.fields != nil { // --json FIELDS: checked against the records' fields before any request
		_ = p.Out() // the shaper is attached
		if known := knownFields(reflect.TypeFor[T]()); known != nil && p.shape != nil {
			if err := unknownField(p.cmd, p.fields, known); err != nil {
				return Listed{}, usageError{err}
			}
			p.shape.known = known
		}
	}
	l, by, err := ruled(p, l) // --filter and --sort
	if err != nil {
		return Listed{}, err
	}
	prog := p.Progress()
	ctx = p.Watch(ctx)
	defer prog.Done()
	var out rowSink[T]
	switch {
	case by != nil: // --sort: its order in every format, the listing's own the tie-breaker
		inner := l
		inner.Keep, inner.Sort, inner.SortAll, inner.Held = nil, nil, false, false
		var in rowSink[T]
		if p.format() == Table {
			in = newTableRows(p, inner, &Progress{})
		} else {
			in = formatSink(p, inner, &Progress{})
		}
		out = newSortedItems(p, l, *by, in, prog)
	case l.SortAll && l.Sort != nil && p.format() != Table:
		inner := l
		inner.Keep = nil // kept already
		out = &orderedItems[T]{l: l, inner: formatSink(p, inner, &Progress{}), prog: prog}
	case p.format() == JSON || p.format() == JSONL || p.format() == CSV:
		out = formatSink(p, l, prog)
	case l.Sort != nil || l.Held:
		out = &heldRows[T]{p: p, l: l, prog: prog}
	default:
		out = newTableRows(p, l, prog)
	}
	var sum api.Summary
	if raw, ok := out.(rawSink); ok && l.Keep == nil {
		sum, err = s.Raw(ctx, raw.raw, out.page)
	} else {
		sum, err = s.Each(ctx, out.item, out.page)
	}
	if err == nil {
		err = out.end(sum)
		for _, n := range sum.Notes() { // what the listing said of itself: stderr, cleaned
			p.Note("%s", n)
		}
	} else {
		err = out.failed(err)
	}
	prog.Done() // the error line replaces the count
	return Listed{Summary: sum, Kept: out.kept()}, err
}

// formatSink is the sink of --json, --jsonl or --csv, written as items come.
func formatSink[T any](p *Printer, l Listing[T], prog *Progress) rowSink[T] {
	if p.format() == CSV {
		return newCSVRows(p, l, prog)
	}
	return newJSONItems(p, l, prog)
}

// rowSink is one format's way of printing a listing's items.
type rowSink[T any] interface {
	item(e *T, it api.RawItem) error
	page() error
	end(api.Summary) error
	// failed is err as the listing ends with it, once what was read is
	// out: with the count of items already written.
	failed(err error) error
	kept() int
}

// rawSink prints items without decoding them (--json without Keep).
type rawSink interface{ raw(it api.RawItem) error }
