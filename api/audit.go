package api

import (
	"context"
	"net/url"
	"strconv"
)

// MaxAuditTake is the largest page of the audit listing.
const MaxAuditTake = 1000

// AuditEarliest returns the workspace's earliest audit entry, optionally of
// one type (GET /api/v1/logs/audit/earliest). An empty log is an error of
// KindNotFound.
func (c *Client) AuditEarliest(ctx context.Context, logType string) (*AuditEntry, error) {
	v := url.Values{}
	if logType != "" {
		v.Set("log_type", logType)
	}
	var body struct {
		Log *AuditEntry `json:"log"`
	}
	if err := c.getJSON(ctx, epAuditEarliest, "/api/v1/logs/audit/earliest", v, &body); err != nil {
		return nil, err
	}
	if body.Log == nil {
		return nil, &Error{Kind: KindNotFound, Endpoint: epAuditEarliest.String(), Status: 200, Message: "no audit log entries found"}
	}
	return body.Log, nil
}

// AuditAfter returns up to take entries strictly after the entry with id
// from, ascending (GET /api/v1/logs/audit). take is clamped to 1..1000.
func (c *Client) AuditAfter(ctx context.Context, from string, take int) ([]AuditEntry, error) {
	if err := requireID(epAuditList, "starting audit entry ID", from); err != nil {
		return nil, err
	}
	take = min(max(take, 1), MaxAuditTake)
	v := url.Values{"from": {from}, "take": {strconv.Itoa(take)}}
	var out []AuditEntry
	if err := c.getJSON(ctx, epAuditList, "/api/v1/logs/audit", v, &out); err != nil {
		return nil, err
	}
	return out, nil
}
