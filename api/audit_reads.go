package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"time"
)

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
