package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// RecycleBinQuery filters the recycle bin. The spec does not name the two
// parameters; these are the names of the sibling endpoints (facts §4.2).
type RecycleBinQuery struct {
	Name           string // case-insensitive substring of the project name
	ClientMatterID string // client matter UUID (not the matter number)
}

// RecycleBin lists deleted projects awaiting purge
// (GET /api/v1/vault/workspace/recycle_bin), newest deletion first (the
// spec's order, kept as received). It holds the typed records only; a caller
// that can handle entries one by one should use EachRecycleBin.
func (c *Client) RecycleBin(ctx context.Context, q RecycleBinQuery) (*RecycleBin, error) {
	var rb RecycleBin
	err := c.resending(ctx, epRecycleBin, func() error {
		rb = RecycleBin{Items: []RecycleBinEntry{}} // --json prints [] rather than null
		held := Held{lim: c.held}
		total, err := c.recycleBinOnce(ctx, q, func(e *RecycleBinEntry, raw []byte) error {
			if err := held.Add(len(raw)); err != nil {
				return err
			}
			rb.Items = append(rb.Items, *e)
			return nil
		})
		rb.Total = total
		return err
	})
	if err != nil {
		return nil, err
	}
	return &rb, nil
}

// EachRecycleBin streams the recycle bin: fn gets each entry as soon as it
// is decoded, with the server's own bytes for it (both valid only during the
// call: the entry's record is reused; unknown fields included), so memory does not grow with the listing.
// An error returned by fn stops the listing and is returned as is. total is
// the server's count (it may follow the items in the body). A body that
// stalls is sent again only while no entry has been handed out.
func (c *Client) EachRecycleBin(ctx context.Context, q RecycleBinQuery, fn func(e *RecycleBinEntry, raw []byte) error) (total Int, err error) {
	err = c.resendingUntilHanded(ctx, epRecycleBin, func(handed func()) (err error) {
		total, err = c.recycleBinOnce(ctx, q, func(e *RecycleBinEntry, raw []byte) error {
			handed()
			return fn(e, raw)
		})
		return err
	})
	return total, err
}

// resendingUntilHanded is resending for a listing that hands entries to
// its caller as they arrive: a stalled body is read again only while no
// entry has been handed out (once calls handed before each), since a
// second read would hand the first ones twice.
func (c *Client) resendingUntilHanded(ctx context.Context, ep endpoint, once func(handed func()) error) error {
	given := false
	err := c.resending(ctx, ep, func() error {
		err := once(func() { given = true })
		if err != nil && given {
			return final{err}
		}
		return err
	})
	var f final
	if errors.As(err, &f) {
		err = f.err
	}
	return err
}

// final stops resending.
type final struct{ err error }

func (f final) Error() string { return f.err.Error() }

func (c *Client) recycleBinOnce(ctx context.Context, q RecycleBinQuery, fn func(e *RecycleBinEntry, raw []byte) error) (Int, error) {
	var e RecycleBinEntry
	return c.recycleBinRaw(ctx, q, func(it RawItem) error {
		e = RecycleBinEntry{}
		if err := unmarshalItem(it.Bytes, &e); err != nil {
			return err
		}
		if err := fn(&e, it.Bytes); err != nil {
			return callerError{err}
		}
		return nil
	})
}

// RawItem is one listing item as the server sent it, its syntax checked.
type RawItem struct {
	Bytes []byte // valid only during the call that hands it
	// Plain says every byte prints as is: no control character, no C1
	// control, valid UTF-8 (found in the same pass that delimits the item).
	Plain bool
}

// EachRecycleBinRaw streams the recycle bin without decoding its entries:
// for output that writes each entry's own bytes (--json, --jsonl), where a
// decode would be thrown away. fn gets each entry checked to be valid JSON
// and an object (or null, which a decode lets by as an empty entry); the
// rest is as EachRecycleBin. DecodePurge reads the one field the purge
// window needs.
func (c *Client) EachRecycleBinRaw(ctx context.Context, q RecycleBinQuery, fn func(it RawItem) error) (total Int, err error) {
	err = c.resendingUntilHanded(ctx, epRecycleBin, func(handed func()) (err error) {
		total, err = c.recycleBinRaw(ctx, q, func(it RawItem) error {
			if c := it.Bytes[0]; c != '{' && c != 'n' {
				return fmt.Errorf("an entry is not a JSON object (it starts with %q)", c)
			}
			handed()
			if err := fn(it); err != nil {
				return callerError{err}
			}
			return nil
		})
		return err
	})
	return total, err
}

// DecodePurge decodes, of a raw recycle-bin entry, only when it is
// scheduled to be purged (what --within filters on).
func DecodePurge(raw []byte) (Time, error) {
	var e struct {
		At Time `json:"recycle_bin_purged_scheduled_at"`
	}
	err := unmarshalItem(raw, &e)
	return e.At, err
}

// listedEntry is the part of an entry that the table and CSV show and the
// purge window reads: decoding only it skips the other strings and times.
type listedEntry struct {
	ResourceID string `json:"resource_id"`
	DeletedAt  Time   `json:"deleted_at"`
	PurgeAt    Time   `json:"recycle_bin_purged_scheduled_at"`
	DeletedBy  string `json:"deleted_by_user_email"`
	Project    struct {
		Name       string `json:"name"`
		FilesCount Int    `json:"files_count"`
	} `json:"vault_project"`
}

// DecodeListed decodes, of a raw recycle-bin entry, the fields a listing
// shows (resource, project name and file count, deletion and purge times,
// who deleted it) into e; the others are left empty.
func DecodeListed(raw []byte, e *RecycleBinEntry) error {
	var l listedEntry
	if err := unmarshalItem(raw, &l); err != nil {
		return err
	}
	*e = RecycleBinEntry{ResourceID: l.ResourceID, DeletedAt: l.DeletedAt, RecycleBinPurgedScheduledAt: l.PurgeAt,
		DeletedByUserEmail: l.DeletedBy, VaultProject: RecycledProject{Name: l.Project.Name, FilesCount: l.Project.FilesCount}}
	return nil
}

func (c *Client) recycleBinRaw(ctx context.Context, q RecycleBinQuery, item func(it RawItem) error) (Int, error) {
	v := url.Values{}
	if q.Name != "" {
		v.Set("name", q.Name)
	}
	if q.ClientMatterID != "" {
		v.Set("client_matter_id", q.ClientMatterID)
	}
	var total Int
	err := c.streamItems(ctx, epRecycleBin, "/api/v1/vault/workspace/recycle_bin", v, "items", item,
		func(key string, raw []byte) error {
			if key == "total" {
				return total.UnmarshalJSON(raw)
			}
			return nil
		})
	return total, err
}

// callerError carries an error of the caller's callback through the scan
// unchanged.
type callerError struct{ err error }

func (e callerError) Error() string { return e.err.Error() }

// itemError is an item that the scanner delimited but the decoder refused.
type itemError struct {
	n   int
	off int64
	err error
}

func (e itemError) Error() string { return e.err.Error() }

// streamItems GETs path and walks its top-level object, handing each element
// of the array member arrayKey to item and every other member to other. An
// empty arrayKey walks a body that is a bare array (other is not called).
func (c *Client) streamItems(ctx context.Context, ep endpoint, path string, q url.Values, arrayKey string,
	item func(it RawItem) error, other func(key string, raw []byte) error) error {
	resp, red, err := c.send(ctx, call{ep: ep, path: path, query: q})
	if err != nil {
		return err
	}
	return c.walkBody(ctx, ep, resp, red, arrayKey, item, other)
}

// walkBody is streamItems after the response headers are in: it walks and
// closes resp's body, and words every way the body can fail as an *Error.
func (c *Client) walkBody(ctx context.Context, ep endpoint, resp *http.Response, red redactor, arrayKey string,
	item func(it RawItem) error, other func(key string, raw []byte) error) error {
	return c.walk(ctx, ep, resp, red, arrayKey, false, item, other)
}

// walk is walkBody; nullOK lets a bare body of null stand for no items,
// as a decode into a slice reads it (the audit listing, which read it so
// before it was walked), where an empty answer is no harm.
func (c *Client) walk(ctx context.Context, ep endpoint, resp *http.Response, red redactor, arrayKey string, nullOK bool,
	item func(it RawItem) error, other func(key string, raw []byte) error) error {
	defer resp.Body.Close()
	body, kept := tapBody(ctx, resp.Body) // WithBodyCopy (bodytap.go)
	hr := &headReader{r: body}
	sc := newScanner(hr)
	if sc.gate = gateOf(resp.Request.Context()); sc.gate != nil {
		sc.gate.marked = true // only items are progress (stream.go)
	}
	n := 0
	var err error
	each := func(raw []byte) error {
		n++
		if err := item(RawItem{raw, sc.plain()}); err != nil {
			var ce callerError
			if errors.As(err, &ce) {
				return err
			}
			return itemError{n, sc.offset() - int64(len(raw)), err}
		}
		return nil
	}
	if arrayKey == "" { // the body is a bare array (the client-matters listing, the audit log)
		if ch, perr := sc.peek(); perr == nil && ch == 'n' && nullOK {
			_, err = sc.value()
		} else if err = sc.array(each); err == nil {
			err = sc.end()
		}
	} else {
		err = sc.object(arrayKey, each, func(key string, raw []byte) error {
			if err := other(key, raw); err != nil {
				return itemError{0, sc.offset() - int64(len(raw)), fmt.Errorf("%q: %w", key, err)}
			}
			return nil
		})
	}
	if err == nil {
		kept()
		return nil
	}
	var ce callerError
	var ie itemError
	var se *syntaxError
	var le *limitError
	switch {
	case errors.As(err, &ce):
		return ce.err
	case errors.As(err, &le):
		where := fmt.Sprintf("item %d", n+1)
		if arrayKey != "" {
			where += fmt.Sprintf(" of %q", arrayKey)
		}
		return overLimit(ep, resp.StatusCode, le, where)
	case asTimeout(ep, err) != nil:
		return asTimeout(ep, err)
	case resp.Request.Context().Err() != nil:
		return canceled(ep, resp.Request.Context().Err())
	case errors.Is(err, errTruncated), errors.Is(err, io.ErrUnexpectedEOF):
		if hr.n == 0 {
			return malformed(ep, resp.StatusCode, red, "empty body where JSON was expected", nil)
		}
		return malformed(ep, resp.StatusCode, red, fmt.Sprintf("truncated JSON: the body ended after %s", plural.Count(hr.n, "byte")), hr.head)
	case errors.As(err, &ie):
		where := strings.TrimSpace(fmt.Sprintf("%s item %d", arrayKey, ie.n))
		if ie.n == 0 {
			where = "a member beside " + arrayKey
		}
		return malformed(ep, resp.StatusCode, red, fmt.Sprintf("invalid JSON at byte %d (%s): %v", ie.off, where, ie.err), hr.head)
	case errors.As(err, &se) && se.item: // worded as a decoder's refusal of the item was
		where := strings.TrimSpace(fmt.Sprintf("%s item %d", arrayKey, n+1))
		return malformed(ep, resp.StatusCode, red, fmt.Sprintf("invalid JSON at byte %d (%s): expected %s, found %q", se.off, where, se.want, se.got), hr.head)
	case errors.As(err, &se):
		return malformed(ep, resp.StatusCode, red, se.Error(), hr.head)
	default:
		return &Error{Kind: KindNetwork, Endpoint: ep.String(), Message: red.safeText(err.Error(), 300)}
	}
}
