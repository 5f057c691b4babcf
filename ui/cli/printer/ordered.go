package printer

import (
	"slices"

	"github.com/vaultdeck/vaultdeck/api"
)

// orderedItems is Listing.SortAll: a listing whose order is part of what
// it says (the bin within a purge window, soonest first) in every format.
// The kept items are held with their own bytes (bounded as the table's
// rows are: api.Held), sorted once the listing is read, then handed in
// that order to the format's own sink, which writes them as it would have
// as they arrived: --json's items still go out as the service sent them.
type orderedItems[T any] struct {
	l     Listing[T]
	inner rowSink[T] // built with a silent progress: the items are counted here
	prog  *Progress
	items []heldItem[T]
	held  api.Held
}

type heldItem[T any] struct {
	e     T
	raw   []byte
	plain bool
}

func (o *orderedItems[T]) item(e *T, it api.RawItem) error {
	o.prog.item()
	if o.l.Keep != nil && !o.l.Keep(e) {
		return nil
	}
	if err := o.held.Add(len(it.Bytes)); err != nil {
		return err
	}
	o.items = append(o.items, heldItem[T]{e: *e, raw: slices.Clone(it.Bytes), plain: it.Plain})
	return nil
}

func (o *orderedItems[T]) page() error { o.prog.page(); return nil }

func (o *orderedItems[T]) end(s api.Summary) error {
	slices.SortStableFunc(o.items, func(a, b heldItem[T]) int { return o.l.Sort(&a.e, &b.e) })
	items := o.items
	o.items = nil
	for i := range items {
		if err := o.inner.item(&items[i].e, api.RawItem{Bytes: items[i].raw, Plain: items[i].plain}); err != nil {
			return o.inner.failed(err)
		}
		items[i] = heldItem[T]{} // written: let it go
	}
	return o.inner.end(s)
}

func (o *orderedItems[T]) failed(err error) error { return err } // nothing was written

func (o *orderedItems[T]) kept() int { return o.inner.kept() }
