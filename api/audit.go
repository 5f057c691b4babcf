package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

// MaxAuditTake is the largest page of the audit listing.
const MaxAuditTake = 1000

// AuditQuery selects the entries of the audit log that Audit lists.
type AuditQuery struct {
	// Type keeps the entries of one type (any case). The listing has no
	// documented filter, so it is applied here too.
	Type string
	// From lists the entries strictly after the one with this id; "" lists
	// the log from its earliest entry (of Type).
	From string
}

// Audit lists the audit log in the service's order (ascending ids): from
// the earliest entry of q.Type (GET /api/v1/logs/audit/earliest, as a page
// of one) or after q.From, then 1000 entries a page (AuditPage, with its
// order checks) until a page is short or brings nothing new. An empty log
// lists nothing. Items are the entries' own bytes; Each decodes the whole
// entry. Every page is one request of the audit budget, and each writes an
// api:audit_log_fetch entry of the token's user into the log.
func (c *Client) Audit(q AuditQuery) Listing[AuditEntry] {
	read := func(ctx context.Context, item func(RawItem) error, page func() error) (Summary, error) {
		hand := func(entries []Item[AuditEntry], ep endpoint) error {
			for i := range entries {
				if err := ctx.Err(); err != nil {
					return canceled(ep, err)
				}
				if err := item(RawItem{Bytes: entries[i].JSON}); err != nil {
					if ce, ok := err.(callerError); ok {
						return ce.err
					}
					return &Error{Kind: KindMalformed, Endpoint: ep.String(), Status: 200,
						Message: fmt.Sprintf("audit item %d: %s", i+1, redact.Truncate(redact.Clean(err.Error()), 200))}
				}
			}
			if page != nil {
				return page()
			}
			return nil
		}
		from := q.From
		if from == "" {
			first, err := c.AuditEarliest(ctx, q.Type)
			if err != nil || first == nil {
				return Summary{}, err
			}
			if err := hand([]Item[AuditEntry]{*first}, epAuditEarliest); err != nil {
				return Summary{}, err
			}
			from = first.Value.ID
		}
		for {
			p, err := c.AuditPage(ctx, from, MaxAuditTake, q.Type)
			if err != nil {
				return Summary{}, err
			}
			if err := hand(p.Entries, epAuditList); err != nil {
				return Summary{}, err
			}
			if !p.Full || p.Last == from {
				return Summary{}, nil
			}
			from = p.Last
		}
	}
	return Listing[AuditEntry]{c: c, ep: epAuditList, read: read, held: Held{lim: c.held, ep: epAuditList}}
}

// The audit log's single reads, each one request of its own endpoint, are
// what a reader that does not start at the earliest entry needs, and what
// api/audit's walk is made of: where a log starts (AuditEarliest), where
// newest first starts (AuditLatest), the place of a time (AuditSearch), and
// a page after a cursor of a size the reader picks (AuditPage). Each entry
// comes with the server's own bytes (Item.JSON), for a mirror that must keep
// exactly what the service said. Each call is one request of the audit
// budget, and each writes an api:audit_log_fetch entry of the token's user
// into the log.

// AuditEarliest returns the earliest entry (of logType) with its own JSON
// (GET /api/v1/logs/audit/earliest); nil (no error) when the log holds
// none. It is where a reading of the whole log starts.
func (c *Client) AuditEarliest(ctx context.Context, logType string) (*Item[AuditEntry], error) {
	return c.auditOne(ctx, epAuditEarliest, "/api/v1/logs/audit/earliest", typeQuery(logType))
}

// AuditLatest returns the newest entry (of logType) with its own JSON
// (GET /api/v1/logs/audit/latest); nil when there is none. Without a type
// the newest entry is this read's own api:audit_log_fetch. It is where a
// reading newest first, or a follow, starts.
func (c *Client) AuditLatest(ctx context.Context, logType string) (*Item[AuditEntry], error) {
	return c.auditOne(ctx, epAuditLatest, "/api/v1/logs/audit/latest", typeQuery(logType))
}

// AuditSearchReach is how far back the service's search looks: a time
// older than this is refused (400), though older entries exist.
const AuditSearchReach = 365 * 24 * time.Hour

// AuditSearch returns the first entry (of logType) at or after t, with its
// own JSON (GET /api/v1/logs/audit/search?time=<epoch seconds>); nil when
// none is (the service's 404): a reading from a time (--since, a jump)
// starts there. t is sent in whole seconds, rounded down, so the entry
// found may be up to a second before t: callers that need "at or after t"
// exactly skip those.
func (c *Client) AuditSearch(ctx context.Context, t time.Time, logType string) (*Item[AuditEntry], error) {
	v := typeQuery(logType)
	v.Set("time", strconv.FormatInt(t.Unix(), 10))
	return c.auditOne(ctx, epAuditSearch, "/api/v1/logs/audit/search", v)
}

// AuditPage returns up to take entries strictly after from, ascending, each
// with its own JSON (GET /api/v1/logs/audit?from=&take=): the page whose
// size a walk picks from the density it found (api/audit) and whose Last
// it pages on. Of each entry only ID, Timestamp, Type, User and IP are
// decoded (auditList). take is clamped to 1..1000. logType is sent, but whether the listing honours it is not
// documented, so entries of another type are also dropped here; a caller
// that pages on must take its next cursor from Last, not from the kept
// entries.
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

// ErrAuditOrder marks an audit answer that does not continue after its
// cursor: an entry whose id is not above the one before it (the listing
// repeated itself or went back, or ignored from), or whose time is before
// the time of the entry before it.
var ErrAuditOrder = errors.New("the audit listing did not continue after its cursor")

// AuditTimeSlack is how far an entry's time may lie before the latest
// time of the entries before it in the listing. The cursor is the id, and
// ids ascend; times ascend with them but for jitter: two entries written
// within one millisecond carry UUIDv7 ids whose order inside it is random,
// and a service may stamp an event a moment before it writes it. An entry
// dated further back is an answer that went back.
const AuditTimeSlack = time.Second

// CheckAuditOrder says whether items continue strictly after the entry
// (prevID, prevAt), as the listing promises: ids ascending and above
// prevID, times never going back by more than AuditTimeSlack (prevAt zero:
// unknown, and a zero time in an item is not compared). Ids compare as the service orders UUIDs,
// case aside. A reader that took an answer breaking this would deliver an
// entry twice or page forever, so the error is permanent: it names the
// listing, the entry and the cursor, and wraps ErrAuditOrder.
func CheckAuditOrder(prevID string, prevAt time.Time, items []Item[AuditEntry]) error {
	prev := strings.ToLower(prevID)
	for i, it := range items {
		id := strings.ToLower(it.Value.ID)
		at := it.Value.Timestamp.Time
		var why string
		switch {
		case prev != "" && id <= prev:
			why = fmt.Sprintf("entry %d (id %.40s) is not after %.40s", i+1, redact.Clean(it.Value.ID), redact.Clean(prevID))
		case !prevAt.IsZero() && !at.IsZero() && at.Before(prevAt.Add(-AuditTimeSlack)):
			why = fmt.Sprintf("entry %d (id %.40s) is dated %s, more than a second before an entry it follows (%s)", i+1, redact.Clean(it.Value.ID),
				at.UTC().Format(time.RFC3339Nano), prevAt.UTC().Format(time.RFC3339Nano))
		}
		if why != "" {
			return &Error{Kind: KindMalformed, Endpoint: epAuditList.String(), Status: 200, Err: ErrAuditOrder,
				Message: why + ": the listing repeated itself or went back, so the read stopped rather than deliver an entry twice"}
		}
		prev, prevID = id, it.Value.ID
		if at.After(prevAt) {
			prevAt = at // the latest so far: jitter may not add up to going back
		}
	}
	return nil
}

// AuditPage is one page of the audit listing.
type AuditPage struct {
	Entries []Item[AuditEntry] // the entries kept (of the type asked for)
	Listed  int                // entries the service listed, of any type
	Last    string             // the id of the last listed entry: the next cursor ("" when none)
	Full    bool               // the page was as long as take: more may follow at once
}

func typeQuery(logType string) url.Values {
	v := url.Values{}
	if logType != "" {
		v.Set("log_type", logType)
	}
	return v
}

// auditOne reads a {"log": {...}} answer; a 404 or a null log is nil.
func (c *Client) auditOne(ctx context.Context, ep endpoint, path string, v url.Values) (*Item[AuditEntry], error) {
	var body struct {
		Log json.RawMessage `json:"log"`
	}
	if err := c.getJSON(ctx, ep, path, v, &body); err != nil {
		if errors.Is(err, KindNotFound) {
			return nil, nil
		}
		return nil, err
	}
	if len(body.Log) == 0 || string(body.Log) == "null" {
		return nil, nil
	}
	items, err := decodeItems[AuditEntry](ep, "log", []json.RawMessage{body.Log})
	if err != nil {
		return nil, err
	}
	if items[0].Value.ID == "" {
		return nil, &Error{Kind: KindMalformed, Endpoint: ep.String(), Status: 200, Message: "the audit entry has no id"}
	}
	return &items[0], nil
}
