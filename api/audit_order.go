package api

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

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
