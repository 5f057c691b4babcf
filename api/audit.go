package api

import (
	"context"
	"fmt"

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

// AuditEntry is one audit log record. Data is type-specific and kept raw.
type AuditEntry struct {
	ID        string    `json:"id"`
	Timestamp Time      `json:"timestamp"`
	Type      AuditType `json:"type"`
	User      string    `json:"user"`
	IP        string    `json:"ip"`
	UserAgent string    `json:"user_agent"`
	Data      RawJSON   `json:"data,omitempty"`
}
