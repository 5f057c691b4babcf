package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
)

// The raw listings below are for output that writes each item's own bytes
// (--json, --jsonl): a page is fetched whole as before (its paging checks
// need all of it), then walked with the stream scanner, which delimits each
// item, checks its syntax and says whether it prints as is in one pass;
// of an item only what paging needs (its ID) is decoded. The items stay
// where the page's content already is, so an item costs no copy and no
// record of its own.

// rawEntry is an item of a raw page beside the ID decoded from it.
type rawEntry struct {
	it RawItem
	id string
}

// rawPage holds the items of one page; its slices are reused page to page.
type rawPage struct {
	entries []rawEntry
	out     []RawItem
	idv     struct { // what idOf decodes into: one record for the page, not one per item
		ID string `json:"id"`
	}
}

// contentBytes GETs an enveloped body ({"response":{"content":...}}) and
// returns the content's bytes as received, resending a stalled body.
func (c *Client) contentBytes(ctx context.Context, ep endpoint, path string, q url.Values) (content []byte, red redactor, err error) {
	err = c.resending(ctx, ep, func() error {
		resp, r, err := c.send(ctx, call{ep: ep, path: path, query: q})
		if err != nil {
			return err
		}
		red = r
		var env envelope
		if err := c.decodeJSONBody(resp, ep, r, &env, false); err != nil {
			return err
		}
		if env.Response == nil || len(env.Response.Content) == 0 {
			return malformed(ep, resp.StatusCode, r, `the body lacks the "response"."content" envelope`, nil)
		}
		content = env.Response.Content
		OfferBody(resp.Request.Context(), content) // the content as received
		return nil
	})
	return content, red, err
}

// scan walks body (a whole, already read JSON object, or a bare array when
// key is ""): each element of the array member key goes into p with the
// ID idOf reads from it; every other member goes to other. A body that is
// valid JSON but not of that shape, or an item that is not an object, is
// KindMalformed, worded as decodeItems words it.
func (p *rawPage) scan(ep endpoint, red redactor, body []byte, key, where string,
	idOf func(raw []byte) (string, error), other func(key string, raw []byte) error) error {
	p.entries = p.entries[:0]
	sc := &scanner{r: bytes.NewReader(nil), buf: body, eof: true, lim: defaultLimits}
	var itemErr error
	each := func(raw []byte) error {
		n := len(p.entries) + 1
		if c := raw[0]; c != '{' && c != 'n' {
			itemErr = fmt.Errorf("%s item %d: not a JSON object (it starts with %q)", where, n, c)
			return itemErr
		}
		id, err := idOf(raw)
		if err != nil {
			itemErr = fmt.Errorf("%s item %d: %s", where, n, truncate(clean(err.Error()), 200))
			return itemErr
		}
		p.entries = append(p.entries, rawEntry{RawItem{raw, sc.plain()}, id})
		return nil
	}
	var err error
	if key == "" {
		if c, perr := sc.peek(); perr == nil && c == 'n' { // null: no items, as a decode into a slice reads it
			_, err = sc.value()
		} else if err = sc.array(each); err == nil {
			err = sc.end()
		}
	} else {
		err = sc.object(key, each, func(k string, raw []byte) error {
			if k == key && raw[0] != 'n' {
				return fmt.Errorf("%q is not an array", key)
			}
			return other(k, raw)
		})
	}
	if err == nil {
		return nil
	}
	if le := (*limitError)(nil); errors.As(err, &le) {
		return overLimit(ep, 200, le, fmt.Sprintf("item %d of %q", len(p.entries)+1, where))
	}
	if err == itemErr {
		return &Error{Kind: KindMalformed, Endpoint: ep.String(), Status: 200, Message: red.safeText(err.Error(), 300)}
	}
	return malformed(ep, 200, red, "response content: "+err.Error(), headOf(body))
}

// items is the page's items in order, for the caller (reused page to page).
func (p *rawPage) items(entries []rawEntry) []RawItem {
	p.out = p.out[:0]
	for _, e := range entries {
		p.out = append(p.out, e.it)
	}
	return p.out
}

// idField decodes, of an item, only its "id".
func (p *rawPage) idField(raw []byte) (string, error) {
	p.idv.ID = ""
	err := unmarshalItem(raw, &p.idv)
	return p.idv.ID, err
}

// walk is one page of a raw listing: it scans content's items under key
// (decoding of each only its ID) and the "pagination" member into pg, runs
// check (nil for none) on the page as scanned, then hands fn the items g
// has not seen (a repeated page or item ends the walk as PageGuard says).
func (p *rawPage) walk(ep endpoint, red redactor, content []byte, key string, pg any,
	g *PageGuard, page int, check func() error, fn func([]RawItem) error) error {
	err := p.scan(ep, red, content, key, key, p.idField, func(k string, raw []byte) error {
		if k == "pagination" {
			return unmarshalItem(raw, pg)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	fresh, err := freshOf(g, page, p.entries, func(e *rawEntry) (string, []byte) { return e.id, e.it.Bytes })
	if err != nil {
		return err
	}
	return fn(p.items(fresh))
}

// EachProjectPageRaw is EachProjectPage for output that writes each
// project's own bytes: fn gets a page's items (valid only during the
// call), each checked to be valid JSON and an object (or null), with the
// same paging checks (PageGuard: repeats, the listing's own total).
func (c *Client) EachProjectPageRaw(ctx context.Context, name string, fn func([]RawItem) error) error {
	g := NewProjectPageGuard()
	var p rawPage
	for page := 1; ; page++ {
		v := url.Values{"page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(MaxPerPage)}}
		if name != "" {
			v.Set("name", name)
		}
		content, red, err := c.contentBytes(ctx, epProjects, "/api/v1/vault/workspace/projects", v)
		if err != nil {
			return err
		}
		var pg PagePagination
		within := func() error { return g.Within(page, len(p.entries), pg) }
		if err := p.walk(epProjects, red, content, "projects", &pg, g, page, within, fn); err != nil {
			return err
		}
		if len(p.entries) == 0 || page >= int(pg.TotalPages) {
			return nil
		}
	}
}
