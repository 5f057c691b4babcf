package api

import (
	"context"
	"errors"
	"fmt"

	"github.com/vaultdeck/vaultdeck/api/jsonstream"
	"github.com/vaultdeck/vaultdeck/api/redact"
)

// A paged listing (the projects, a project's files, a project's users) is
// read a page at a time: a page is fetched whole (its paging checks need
// all of it, and a stalled page is sent again before any of it is handed
// out), then walked with the stream scanner, which delimits each item,
// checks its syntax and says whether it prints as is in one pass; of an
// item only what paging needs (its ID) is decoded here. The items stay
// where the page's content already is, so an item costs no copy and no
// record of its own until a caller decodes it.

// rawEntry is an item of a raw page beside the ID decoded from it.
type rawEntry struct {
	it RawItem
	id string
	n  int // its place in the page, from 1
}

// rawPage holds the items of one page; its slices are reused page to page.
type rawPage struct {
	entries []rawEntry
	idv     struct { // what idField decodes into: one record for the page, not one per item
		ID string `json:"id"`
	}
}

// scan walks body (a whole, already read JSON object, or a bare array when
// key is ""): each element of the array member key goes into p with the
// ID idOf reads from it; every other member goes to other. A body that is
// valid JSON but not of that shape, or an item that is not an object, is
// KindMalformed, worded as a decode of the page words it.
func (p *rawPage) scan(ep endpoint, red redact.Redactor, body []byte, key, where string,
	idOf func(raw []byte) (string, error), other func(key string, raw []byte) error) error {
	p.entries = p.entries[:0]
	sc := jsonstream.OfBytes(body, jsonstream.Default)
	var itemErr error
	each := func(raw []byte) error {
		n := len(p.entries) + 1
		if c := raw[0]; c != '{' && c != 'n' {
			itemErr = fmt.Errorf("%s item %d: not a JSON object (it starts with %q)", where, n, c)
			return itemErr
		}
		id, err := idOf(raw)
		if err != nil {
			itemErr = fmt.Errorf("%s item %d: %s", where, n, redact.Truncate(redact.Clean(err.Error()), 200))
			return itemErr
		}
		p.entries = append(p.entries, rawEntry{RawItem{Bytes: raw, Plain: sc.Plain()}, id, n})
		return nil
	}
	var err error
	if key == "" {
		if c, perr := sc.Peek(); perr == nil && c == 'n' { // null: no items, as a decode into a slice reads it
			_, err = sc.Value()
		} else if err = sc.Array(each); err == nil {
			err = sc.End()
		}
	} else {
		err = sc.Object(key, each, func(k string, raw []byte) error {
			if k == key && raw[0] != 'n' {
				return fmt.Errorf("%q is not an array", key)
			}
			return other(k, raw)
		})
	}
	if err == nil {
		return nil
	}
	if le := (*jsonstream.LimitError)(nil); errors.As(err, &le) {
		return overLimit(ep, 200, le, fmt.Sprintf("item %d of %q", len(p.entries)+1, where))
	}
	if err == itemErr {
		return &Error{Kind: KindMalformed, Endpoint: ep.String(), Status: 200, Message: red.SafeText(err.Error(), 300)}
	}
	return malformed(ep, 200, red, "response content: "+err.Error(), headOf(body))
}

// idField decodes, of an item, only its "id".
func (p *rawPage) idField(raw []byte) (string, error) {
	p.idv.ID = ""
	err := unmarshalItem(raw, &p.idv)
	return p.idv.ID, err
}

// scanPage scans a page's content: its items under key (of each only its
// ID) and its "pagination" member into pg.
func (p *rawPage) scanPage(ep endpoint, red redact.Redactor, content []byte, key string, pg any) error {
	return p.scan(ep, red, content, key, key, p.idField, func(k string, raw []byte) error {
		if k == "pagination" {
			return unmarshalItem(raw, pg)
		}
		return nil
	})
}

// hand gives item the entries of the page that g has not seen (g nil: all
// of them), in order; a page that brings none ends the listing as PageGuard
// says. ctx is checked between items, so a cancelled read stops at once. An
// error of item wrapped in callerError is returned unwrapped; any other is
// the item refused, named by its place in the page.
func (p *rawPage) hand(ctx context.Context, ep endpoint, key string, g *PageGuard, page int, item func(RawItem) error) error {
	entries := p.entries
	if g != nil {
		var err error
		entries, err = freshOf(g, page, p.entries, func(e *rawEntry) (string, []byte) { return e.id, e.it.Bytes })
		if err != nil {
			return err
		}
	}
	for i := range entries {
		if err := ctx.Err(); err != nil {
			return canceled(ep, err)
		}
		if err := item(entries[i].it); err != nil {
			if ce, ok := err.(callerError); ok {
				return ce.err
			}
			return &Error{Kind: KindMalformed, Endpoint: ep.String(), Status: 200,
				Message: fmt.Sprintf("%s item %d: %s", key, entries[i].n, redact.Truncate(redact.Clean(err.Error()), 200))}
		}
	}
	return nil
}

// numbered is the pagination of a page-numbered listing, with whether it
// stated the total.
type numbered struct {
	PagePagination
	Total *Int `json:"total"`
}

func (n *numbered) pagination() PagePagination {
	p := n.PagePagination
	if n.Total != nil {
		p.Total = *n.Total
	}
	return p
}

func (n *numbered) summary() Summary {
	return Summary{Total: n.pagination().Total, HasTotal: n.Total != nil}
}

// cursored is the pagination of a cursor listing, with whether it stated
// the total.
type cursored struct {
	CursorPagination
	TotalCount *Int `json:"total_count"`
}

func (c *cursored) summary() Summary {
	if c.TotalCount == nil {
		return Summary{}
	}
	return Summary{Total: *c.TotalCount, HasTotal: true}
}

// next is the cursor of the page after this one, "" when it is the last.
func (c *cursored) next() string {
	if !c.HasMore || c.NextCursor == nil {
		return ""
	}
	return *c.NextCursor
}
