package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/jsonstream"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/redact"
)

// AuditPage returns up to take entries strictly after from, ascending, each
// with its own JSON (GET /api/v1/logs/audit?from=&take=): the page whose
// size a walk picks from the density it found (api/audit) and whose Last
// it pages on. Of each entry only ID, Timestamp, Type, User and IP are
// decoded (auditList). take is clamped to 1..1000. logType is sent, but
// whether the listing honours it is not documented, so entries of another
// type are also dropped here; a caller that pages on must take its next
// cursor from Last, not from the kept entries.
func (c *Client) AuditPage(ctx context.Context, from string, take int, logType string) (AuditPage, error) {
	if err := requireID(epAuditList, "starting audit entry ID", from); err != nil {
		return AuditPage{}, err
	}
	take = min(max(take, 1), MaxAuditTake)
	v := typeQuery(logType)
	v.Set("from", from)
	v.Set("take", strconv.Itoa(take))
	items, err := c.auditList(ctx, v, take)
	if err != nil {
		return AuditPage{}, err
	}
	if err := CheckAuditOrder(from, time.Time{}, items); err != nil {
		return AuditPage{}, err
	}
	p := AuditPage{Listed: len(items), Full: len(items) >= take}
	if len(items) > 0 {
		p.Last = items[len(items)-1].Value.ID
	}
	p.Entries = items[:0] // the kept entries, in place: items is this page's own
	for i, it := range items {
		if it.Value.ID == "" {
			return AuditPage{}, &Error{Kind: KindMalformed, Endpoint: epAuditList.String(), Status: 200,
				Message: fmt.Sprintf("audit item %d has no id, so the log cannot be paged past it", i+1)}
		}
		if logType == "" || strings.EqualFold(string(it.Value.Type), logType) {
			p.Entries = append(p.Entries, it)
		}
	}
	return p, nil
}

// AuditPage is one page of the audit listing.
type AuditPage struct {
	Entries []Item[AuditEntry] // the entries kept (of the type asked for)
	Listed  int                // entries the service listed, of any type
	Last    string             // the id of the last listed entry: the next cursor ("" when none)
	Full    bool               // the page was as long as take: more may follow at once
}

// A page of the audit listing is read as the other raw listings are (the
// stream scanner: one pass for each entry's end, its syntax and whether it
// prints as is), and of each entry only what the readers of a page use is
// decoded: the id (the cursor and the order check), the timestamp (order,
// --since/--until, the newest-first windows), the type, the user and the
// address (the filters, the mirror's columns). An entry costs, in the
// common case, two allocations: its bytes as the service sent them
// (Item.JSON, its own, since callers keep entries) and one string holding
// its five fields; decoding it whole cost eleven. The page is held whole
// before it is handed on, as before: its order is checked first, and a
// stalled body is read again.

// auditList reads one page of GET /api/v1/logs/audit (q: from, take,
// log_type).
// The bounds are those of any answer held whole (MaxBodyBytes for the
// page; MaxItemBytes and MaxStringBytes as the scanner applies them) and
// take (clamped to 1..MaxAuditTake) for the entries of the page; a
// body that is not an array of objects (or null) is KindMalformed, an
// entry that is not valid JSON named by its number.
func (c *Client) auditList(ctx context.Context, q url.Values, take int) ([]Item[AuditEntry], error) {
	// room for the page asked for: a full page is the common case, and a
	// server that sends more only makes the slice grow (the body's bound
	// holds it)
	take = min(max(take, 1), MaxAuditTake)
	items := make([]Item[AuditEntry], 0, take)
	var d auditFieldDecoder
	err := c.resending(ctx, epAuditList, func() error {
		items = items[:0]
		resp, red, err := c.send(ctx, call{ep: epAuditList, path: "/api/v1/logs/audit", query: q})
		if err != nil {
			return err
		}
		resp.Body = &heldBody{r: resp.Body, lim: jsonstream.MaxBodyBytes}
		return c.walk(ctx, epAuditList, resp, red, "", true, func(it RawItem) error {
			n := len(items) + 1
			if n > take {
				// The listing promises at most take; a page past it is
				// a broken answer, and entries of a few bytes each would
				// otherwise make the 16 MiB a page may be into hundreds
				// of MB of records.
				return callerError{&Error{Kind: KindTooLarge, Endpoint: epAuditList.String(), Status: 200,
					Message: fmt.Sprintf("the page holds more than the %s asked for; vaultdeck stopped reading. The service or a proxy in between sent something broken; try again, and report it if it persists", plural.Count(take, "entry"))}}
			}
			if ch := it.Bytes[0]; ch != '{' && ch != 'n' {
				return fmt.Errorf("not a JSON object (it starts with %q)", ch)
			}
			if !it.Plain && !json.Valid(it.Bytes) {
				// The scan lets a raw control character in a string by
				// (the raw listings escape it on the way out); the listing
				// was decoded before, which refused it, and its fields go
				// to the mirror and the console: refused as it was.
				var v json.RawMessage
				return json.Unmarshal(it.Bytes, &v)
			}
			e, err := d.decode(it.Bytes)
			if err != nil {
				return callerError{&Error{Kind: KindMalformed, Endpoint: epAuditList.String(), Status: 200,
					Message: red.SafeText(fmt.Sprintf("audit item %d: %s", n, redact.Truncate(redact.Clean(err.Error()), 200)), 300)}}
			}
			// The entry's own copy of its bytes: callers keep entries past
			// their page (a window of the newest, the CLI's batch of a
			// thousand shown rows, the console), and one kept entry must
			// not hold its whole page (up to MaxBodyBytes) in memory.
			items = append(items, Item[AuditEntry]{Value: e, JSON: bytes.Clone(it.Bytes)})
			return nil
		}, nil)
	})
	if err != nil {
		return nil, err
	}
	return items, nil
}

// heldBody stops a body held whole at lim bytes as sent (whitespace
// included), as decodes of such answers do.
type heldBody struct {
	r   io.ReadCloser
	n   int64
	lim int64
}

func (h *heldBody) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if h.n += int64(n); h.n > h.lim {
		return 0, jsonstream.BodyLimit(h.lim)
	}
	return n, err
}

func (h *heldBody) Close() error { return h.r.Close() }
