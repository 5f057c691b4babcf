package printer

import (
	"slices"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe"
)

// The table's and the CSV's ways of printing a listing (List).

// tableRows writes each page's rows aligned on the columns the header and
// the first page set.
type tableRows[T any] struct {
	l       Listing[T]
	p       *Printer
	prog    *Progress
	cols    columns
	pending [][]string
	ends    []int64 // where each pending row's line ends in what stdout was given
	n       int
}

func newTableRows[T any](p *Printer, l Listing[T], prog *Progress) *tableRows[T] {
	return &tableRows[T]{l: l, p: p, prog: prog, cols: columns{w: p.Out(), at: p.io.givenSoFar}}
}

func (t *tableRows[T]) item(e *T, _ api.RawItem) error {
	t.prog.item()
	if t.l.Keep != nil && !t.l.Keep(e) {
		return nil
	}
	if t.cols.widths == nil && len(t.pending) == 0 {
		t.pending = append(t.pending, cleanRow(t.l.Headers))
	}
	t.pending = append(t.pending, cleanRow(t.l.Cells(e)))
	t.n++
	return nil
}

func (t *tableRows[T]) write() error {
	if len(t.pending) == 0 {
		return nil
	}
	header := t.cols.widths == nil // the first block begins with the header
	t.ends = t.ends[:0]
	err := t.cols.block(t.pending, &t.ends)
	if header {
		t.ends = t.ends[1:]
	}
	for _, end := range t.ends {
		t.p.io.markAt(end)
	}
	t.pending = t.pending[:0]
	return err
}

func (t *tableRows[T]) page() error {
	if err := t.write(); err != nil {
		return err
	}
	t.prog.page()
	return t.p.Flush()
}

func (t *tableRows[T]) end(s api.Summary) error {
	if err := t.write(); err != nil {
		return err
	}
	if t.cols.widths == nil { // no page had a row: the header alone
		if err := t.cols.block([][]string{cleanRow(t.l.Headers)}, nil); err != nil {
			return err
		}
	}
	if t.l.Foot != nil {
		return t.l.Foot(t.p.Out(), s, t.n)
	}
	return nil
}

func (t *tableRows[T]) failed(err error) error {
	if werr := t.write(); werr != nil { // the rows read before it still go out
		return werr
	}
	return AfterItems(err, t.n)
}

func (t *tableRows[T]) kept() int { return t.n }

// csvRows writes a record an item, the header with the first one, in the
// service's order: nothing is held.
type csvRows[T any] struct {
	l    Listing[T]
	p    *Printer
	prog *Progress
	w    *csvsafe.Writer
	n    int
}

func newCSVRows[T any](p *Printer, l Listing[T], prog *Progress) *csvRows[T] {
	if l.CSVCells != nil { // the listing's record, the console's export's too
		l.Headers, l.Cells = l.CSVHeaders, l.CSVCells
	}
	return &csvRows[T]{l: l, p: p, prog: prog}
}

func (c *csvRows[T]) item(e *T, _ api.RawItem) error {
	c.prog.item()
	if c.l.Keep != nil && !c.l.Keep(e) {
		return nil
	}
	if c.w == nil {
		c.w = csvWriter(c.p)
		_ = c.w.Row(c.l.Headers...) // a write error is kept by the writer and reported by its flush
	}
	c.n++
	_ = c.w.Row(c.l.Cells(e)...)
	c.p.io.itemEnd() // the CSV writer writes into stdout's buffer itself (the same bufio.Writer)
	return nil
}

func (c *csvRows[T]) flush() error {
	if c.w == nil {
		return nil
	}
	return c.w.Flush()
}

func (c *csvRows[T]) page() error {
	if err := c.flush(); err != nil {
		return err
	}
	c.prog.page()
	return c.p.Flush()
}

func (c *csvRows[T]) end(api.Summary) error {
	if c.w == nil { // no item: the header alone
		c.w = csvWriter(c.p)
		_ = c.w.Row(c.l.Headers...)
	}
	return c.flush()
}

func (c *csvRows[T]) failed(err error) error {
	if ferr := c.flush(); ferr != nil {
		return ferr
	}
	return AfterItems(err, c.n)
}

func (c *csvRows[T]) kept() int { return c.n }

// heldRows holds a sorted table's items (bounded in count and bytes) and
// prints them once the listing is read: what needs a decision comes first.
type heldRows[T any] struct {
	l    Listing[T]
	p    *Printer
	prog *Progress
	rows []T
	held api.Held
}

func (h *heldRows[T]) item(e *T, it api.RawItem) error {
	h.prog.item()
	if h.l.Keep != nil && !h.l.Keep(e) {
		return nil
	}
	if err := h.held.Add(len(it.Bytes)); err != nil {
		return err
	}
	h.rows = append(h.rows, *e)
	return nil
}

func (h *heldRows[T]) page() error { h.prog.page(); return nil }

func (h *heldRows[T]) end(s api.Summary) error {
	if h.l.Sort != nil {
		slices.SortStableFunc(h.rows, func(a, b T) int { return h.l.Sort(&a, &b) })
	}
	h.prog.Done()
	w := h.p.Out()
	if h.l.Head != nil {
		if err := h.l.Head(w, s, len(h.rows)); err != nil {
			return err
		}
	}
	pass := 0
	err := Aligned(w, func(row func([]string)) error {
		pass++ // the widths, then the rows
		row(h.l.Headers)
		for i := range h.rows {
			row(h.l.Cells(&h.rows[i]))
			if pass == 2 {
				h.p.io.itemEnd() // Aligned writes into stdout's buffer itself (the same bufio.Writer)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if h.l.Foot != nil {
		return h.l.Foot(w, s, len(h.rows))
	}
	return nil
}

func (h *heldRows[T]) failed(err error) error { return err } // nothing was written

func (h *heldRows[T]) kept() int { return len(h.rows) }
