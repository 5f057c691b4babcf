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
// spec's order, kept as received), in one body walked as it arrives: Raw
// and Each hold one entry at a time however large the bin. Summary.Total
// is the service's count (it may follow the items in the body).
func (c *Client) RecycleBin(q RecycleBinQuery) Listing[RecycleBinEntry] {
	return Listing[RecycleBinEntry]{c: c, ep: epRecycleBin, whole: true, again: true, held: Held{lim: c.held},
		read: func(ctx context.Context, item func(RawItem) error, _ func() error) (Summary, error) {
			return c.recycleBinRaw(ctx, q, item)
		}}
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

func (c *Client) recycleBinRaw(ctx context.Context, q RecycleBinQuery, item func(it RawItem) error) (Summary, error) {
	v := url.Values{}
	if q.Name != "" {
		v.Set("name", q.Name)
	}
	if q.ClientMatterID != "" {
		v.Set("client_matter_id", q.ClientMatterID)
	}
	var s Summary
	err := c.streamItems(ctx, epRecycleBin, "/api/v1/vault/workspace/recycle_bin", v, "items", item,
		func(key string, raw []byte) error {
			if key == "total" {
				s.HasTotal = true
				return s.Total.UnmarshalJSON(raw)
			}
			return nil
		})
	return s, err
}

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
