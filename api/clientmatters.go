package api

import (
	"context"
	"net/http"
	"time"
)

// ClientMatter is one record of the client-matters listing (GET
// /api/v1/client_matters, facts §6.1): a bare, unpaginated array that
// includes deleted matters. The public record has no firm identifiers, only
// the stored name (client_id + delimiter + matter_id, spec rule 4, with a
// delimiter the client cannot read); ClientID and MatterID are filled only
// when the service adds them (the simulator does), and are the only way a
// record proves which pair it is.
type ClientMatter struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	ClientID string `json:"client_id"`
	MatterID string `json:"matter_id"`
	// NameDelimiter is the simulator's mapping from v1 names to v2 pairs
	// (api/sim's listing): a pair (c, m) is this record when the record's
	// pair is (c, m) or its Name is c + NameDelimiter + m. nil when the
	// service does not say it (the public record): a client must not then
	// guess which pair a record is.
	NameDelimiter *string `json:"name_delimiter"`
	UserEmail     string  `json:"user_email"` // who created it (facts §6.1)
	Description   string  `json:"description"`
	UserCount     Int     `json:"user_count"`   // usage: people who used it
	TotalEvents   Int     `json:"total_events"` // usage: events filed under it
	CreatedAt     Time    `json:"created_at"`
	DeletedAt     Time    `json:"deleted_at"`
}

// Deleted says whether the record is deleted (a deleted_at in a form that
// cannot be read still counts, with a zero time).
func (m *ClientMatter) Deleted() bool { return m.DeletedAt.Raw != "" || !m.DeletedAt.IsZero() }

// ServiceClock relates the service's clock to this machine's, read from the
// listing's Date header: the service's time Date (whole seconds) was taken
// between Sent and Received on this machine's clock. Date is zero when the
// header was missing or unreadable.
type ServiceClock struct {
	Date, Sent, Received time.Time
}

// Offset is the least the service's clock can be ahead of this one: Date
// is truncated to the second and was stamped before the answer arrived.
// ok is false when the service sent no usable Date.
func (s ServiceClock) Offset() (d time.Duration, ok bool) {
	if s.Date.IsZero() {
		return 0, false
	}
	return s.Date.Sub(s.Received), true
}

// ClientMatters lists the client matters (GET /api/v1/client_matters), a
// bare array walked as it arrives, so memory does not grow with the
// workspace. Summary.Clock is the service's clock as its Date header gave
// it. Unlike the other listings it is not sent again after a stall, even
// before a record was handed out: its budget is the matter writes' too.
func (c *Client) ClientMatters() Listing[ClientMatter] {
	read := func(ctx context.Context, item func(RawItem) error, _ func() error) (Summary, error) {
		var s Summary
		s.Clock.Sent = time.Now()
		resp, red, err := c.send(ctx, call{ep: epListMatters, path: "/api/v1/client_matters"})
		if err != nil {
			return s, err
		}
		s.Clock.Received = time.Now()
		if d, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
			s.Clock.Date = d.UTC()
		}
		return s, c.walkBody(ctx, epListMatters, resp, red, "", item, nil)
	}
	return Listing[ClientMatter]{c: c, ep: epListMatters, read: read, whole: true, held: Held{lim: c.held, ep: epListMatters}}
}
