package api

import (
	"context"
	"errors"
	"iter"
	"strings"
)

// The iterators below page through a listing lazily. Each yields records
// one by one; on failure it yields (zero, err) once and stops. Every page
// request takes ctx, and the iterators check ctx between records, so
// cancelling stops them at once. Breaking out of the loop sends no further
// request.

// AuditLog iterates over the audit log: the earliest entry (of logType, when
// given), then the entries after it, 1000 per page, until a page is empty or
// short. The listing has no type filter, so logType is applied here. An
// empty log yields nothing.
func (c *Client) AuditLog(ctx context.Context, logType string) iter.Seq2[AuditEntry, error] {
	return func(yield func(AuditEntry, error) bool) {
		first, err := c.AuditEarliest(ctx, logType)
		if errors.Is(err, KindNotFound) {
			return
		}
		if err != nil {
			yield(AuditEntry{}, err)
			return
		}
		if !yield(*first, nil) {
			return
		}
		from := first.ID
		for {
			if err := ctx.Err(); err != nil {
				yield(AuditEntry{}, canceled(epAuditList, err))
				return
			}
			page, err := c.AuditAfter(ctx, from, MaxAuditTake)
			if err != nil {
				yield(AuditEntry{}, err)
				return
			}
			for _, e := range page {
				if ctx.Err() != nil {
					yield(AuditEntry{}, canceled(epAuditList, ctx.Err()))
					return
				}
				if logType != "" && !strings.EqualFold(string(e.Type), logType) {
					continue
				}
				if !yield(e, nil) {
					return
				}
			}
			if len(page) < MaxAuditTake || page[len(page)-1].ID == from {
				return
			}
			from = page[len(page)-1].ID
		}
	}
}
