package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/jsonstream"
)

// Listing is one listing of the service, as its one method on *Client
// returns it (c.RecycleBin(q), c.Projects(q), c.ProjectFiles(id, q),
// c.ProjectUsers(id), c.ClientMatters(), c.Audit(q)). Nothing is requested
// until one of its methods runs; it can be read more than once, each read
// from the listing's start.
//
// The three ways to read it share one reading of the service (read) and
// differ only in what they do with each item: Raw hands its bytes on, Each
// decodes it first, Collect keeps it.
type Listing[T any] struct {
	c  *Client
	ep endpoint
	// read reads the listing once from its start: each item to item, in
	// the service's order, and page (when not nil) after each page. An
	// error of item wrapped in callerError comes back unwrapped; any other
	// is the item refused, worded as the listing words a malformed item.
	read func(ctx context.Context, item func(RawItem) error, page func() error) (Summary, error)
	// whole: the listing is one body walked as it arrives (the recycle
	// bin, the client matters), so read hands items out before the body
	// has ended and never calls page; the Listing calls page at its end.
	whole bool
	// again: a whole body that stalls is sent again, as long as nothing
	// of it has been handed out (Raw, Each) or at all (Collect). A paged
	// listing holds each page whole before handing it out and sends a
	// stalled page again itself.
	again bool
	// held bounds what Collect holds (a copy is counted from zero).
	held Held
	// decode decodes an item for Each and Collect; nil: the whole record.
	decode func(raw []byte, v *T) error
	// collect replaces Collect (and what Raw and Each read) for a listing
	// whose answer is held elsewhere: Collected, the Share's.
	collect func(ctx context.Context) ([]T, Summary, error)
	// compactor, when not nil, makes the function Collect passes each kept
	// item through (one per answer: it may intern across the items), so
	// that what is held does not point into the decode's buffers.
	compactor func() func(*T)
}

// Summary is what a listing's body said of the whole: the recycle bin's
// "total", a paged listing's total count. Clock is read from the answer's
// Date header, by the listings whose callers need the service's time (the
// client matters); it is zero for the others.
type Summary struct {
	Total    Int
	HasTotal bool
	// TotalText is the total as the service sent it, when Total is not
	// Valid (a JSON wrapper of --json prints it as sent).
	TotalText string
	// Changes is what the pages said of the listing while it was read:
	// nil when nothing (a pointer, so that a Summary stays comparable).
	Changes *PageChanges
	Clock   ServiceClock
}

// RawItem is one listing item as the server sent it, its syntax checked:
// Bytes, valid only during the call that hands it, and Plain, whether every
// byte prints as is (no control character, no C1 control, valid UTF-8). It
// is jsonstream's Item, so a walked body hands its items on unchanged.
type RawItem = jsonstream.Item

// Raw hands fn each item's own bytes, in the service's order, without
// decoding them (the --json path: nothing held, no record made). Each item
// is checked to be valid JSON and an object (or null, which a decode lets
// by as an empty record). page, when not nil, is called after the last
// item of each page has been handed out and before the next page is
// requested (a listing that is one body calls it once, at its end). An
// error from fn or page stops the listing and is returned as is. A body
// that stalls is sent again only while nothing of it has been handed out;
// a page that repeats an earlier one or lies past the listing's own total
// ends the listing with an error (PageGuard), and an item is handed out
// once. It returns what the service said about the listing as a whole.
func (l Listing[T]) Raw(ctx context.Context, fn func(RawItem) error, page func() error) (Summary, error) {
	if l.read == nil {
		return l.eachHeld(ctx, func(_ *T, it RawItem) error { return fn(it) }, page)
	}
	return l.stream(ctx, page, func(handed func()) func(RawItem) error {
		return func(it RawItem) error {
			if c := it.Bytes[0]; c != '{' && c != 'n' {
				return fmt.Errorf("an entry is not a JSON object (it starts with %q)", c)
			}
			handed()
			if err := fn(it); err != nil {
				return callerError{err}
			}
			return nil
		}
	})
}

// Each is Raw with each item decoded into a T: one record reused from call
// to call (copy what you keep), beside the item's own bytes (valid only
// during the call). An item the decoder refuses ends the listing with an
// error naming it; the items before it have been handed out.
func (l Listing[T]) Each(ctx context.Context, fn func(*T, RawItem) error, page func() error) (Summary, error) {
	if l.read == nil {
		return l.eachHeld(ctx, fn, page)
	}
	var v T
	return l.stream(ctx, page, func(handed func()) func(RawItem) error {
		return func(it RawItem) error {
			if err := l.decodeInto(it.Bytes, &v); err != nil {
				return err
			}
			handed()
			if err := fn(&v, it); err != nil {
				return callerError{err}
			}
			return nil
		}
	})
}

// Collect holds every item, bounded as an answer held in memory is
// (Held: past MaxHeldEntries or MaxHeldBytes as sent it stops with an
// error that names the streaming ways). Nothing is handed out before the
// listing has ended, so a body that stalls is sent again. The slice is
// never nil when err is nil.
func (l Listing[T]) Collect(ctx context.Context) ([]T, Summary, error) {
	if l.collect != nil {
		return l.collect(ctx)
	}
	var out []T
	var s Summary
	once := func() (err error) {
		out = []T{}
		held := l.held
		compact := func(*T) {}
		if l.compactor != nil {
			compact = l.compactor()
		}
		s, err = l.read(ctx, func(it RawItem) error {
			if err := held.Add(len(it.Bytes)); err != nil {
				return callerError{err}
			}
			var zero T
			out = append(out, zero)
			if err := l.decodeInto(it.Bytes, &out[len(out)-1]); err != nil {
				return err
			}
			compact(&out[len(out)-1])
			return nil
		}, nil)
		return err
	}
	var err error
	if l.whole && l.again {
		err = l.c.resending(ctx, l.ep, once)
	} else {
		err = once()
	}
	if err != nil {
		return nil, s, err
	}
	return out, s, nil
}

// Collected is a listing whose items come whole from collect: an answer
// held in memory (one that serve's sessions share, a test's). Collect
// returns what collect does; Raw and Each hand each item with its JSON
// encoding (not bytes a service sent, and never Plain), and call page once,
// at the end.
func Collected[T any](collect func(ctx context.Context) ([]T, Summary, error)) Listing[T] {
	return Listing[T]{collect: collect}
}

// stream runs read for Raw and Each: item(handed) is the function handed
// each item, which calls handed once it gives an item out, so that a whole
// body that stalls is sent again only while nothing has been handed out.
func (l Listing[T]) stream(ctx context.Context, page func() error, item func(handed func()) func(RawItem) error) (Summary, error) {
	if !l.whole {
		return l.read(ctx, item(func() {}), page)
	}
	var s Summary
	var err error
	if l.again {
		err = l.c.resendingUntilHanded(ctx, l.ep, func(handed func()) (err error) {
			s, err = l.read(ctx, item(handed), nil)
			return err
		})
	} else {
		s, err = l.read(ctx, item(func() {}), nil)
	}
	if err == nil && page != nil {
		err = page()
	}
	return s, err
}

// decodeInto decodes raw into v from a zero record.
func (l Listing[T]) decodeInto(raw []byte, v *T) error {
	var zero T
	*v = zero
	if l.decode != nil {
		return l.decode(raw, v)
	}
	return unmarshalItem(raw, v)
}

// eachHeld is Each (and Raw) of a Collected listing.
func (l Listing[T]) eachHeld(ctx context.Context, fn func(*T, RawItem) error, page func() error) (Summary, error) {
	items, s, err := l.collect(ctx)
	if err != nil {
		return s, err
	}
	var v T
	for i := range items {
		b, err := json.Marshal(&items[i])
		if err != nil {
			return s, err
		}
		v = items[i]
		if err := fn(&v, RawItem{Bytes: b}); err != nil {
			return s, err
		}
	}
	if page != nil {
		err = page()
	}
	return s, err
}

// callerError carries an error of the caller's callback through the scan
// unchanged.
type callerError struct{ err error }

func (e callerError) Error() string { return e.err.Error() }

// PageChanges are the totals the pages of a listing stated, when they
// changed while it was read (the first, then each new one), and the
// records a later page listed again (handed out once, PageGuard): a few
// of their IDs, of RepeatedN in all.
type PageChanges struct {
	Totals    []Int
	Repeated  []string
	RepeatedN int
}

// after is s, a page's summary, with what the pages before it said: the
// totals, when this page's differs from the last.
func (s Summary) after(prev Summary) Summary {
	s.Changes = prev.Changes
	if prev.HasTotal && s.HasTotal && prev.Total != s.Total {
		c := &PageChanges{Totals: []Int{prev.Total}}
		if s.Changes != nil {
			c = &PageChanges{Totals: s.Changes.Totals}
		}
		if len(c.Totals) < 10 { // bounded: a total that never settles is said by its first ten
			c.Totals = append(c.Totals, s.Total)
		}
		s.Changes = c
	}
	return s
}

// repeats is s with the records its guard saw listed again.
func (s Summary) repeats(g *PageGuard) Summary {
	ids, n := g.Repeats()
	if n == 0 {
		return s
	}
	c := &PageChanges{}
	if s.Changes != nil {
		*c = *s.Changes
	}
	c.Repeated, c.RepeatedN = ids, n
	s.Changes = c
	return s
}

// Notes are the lines a reader of the whole listing says of it: a total
// that changed between pages (what the listing holds may have changed
// while it was read) and records listed again.
func (s Summary) Notes() []string {
	if s.Changes == nil {
		return nil
	}
	c := *s.Changes
	var out []string
	if len(c.Totals) > 1 {
		totals := make([]string, len(c.Totals))
		for i, t := range c.Totals {
			totals[i] = t.String()
		}
		out = append(out, "the listing's total changed while it was read ("+strings.Join(totals, ", then ")+
			"): records may have been added or removed between its pages; run it again for one view")
	}
	if c.RepeatedN > 0 {
		more := ""
		if c.RepeatedN > len(c.Repeated) {
			more = fmt.Sprintf(" and %d more", c.RepeatedN-len(c.Repeated))
		}
		out = append(out, fmt.Sprintf("a later page listed again %s%s: shown once", strings.Join(c.Repeated, ", "), more))
	}
	return out
}
