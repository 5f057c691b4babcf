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
	ID          string `json:"id"`
	Name        string `json:"name"`
	ClientID    string `json:"client_id"`
	MatterID    string `json:"matter_id"`
	UserEmail   string `json:"user_email"` // who created it (facts §6.1)
	Description string `json:"description"`
	UserCount   Int    `json:"user_count"`   // usage: people who used it
	TotalEvents Int    `json:"total_events"` // usage: events filed under it
	CreatedAt   Time   `json:"created_at"`
	DeletedAt   Time   `json:"deleted_at"`
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

// EachClientMatter streams the client-matters listing: fn gets each record
// as it is decoded, so memory does not grow with the workspace. An error
// from fn stops the listing and is returned as is. Unlike the other
// listings it is not sent again after a stall: fn has then seen records.
func (c *Client) EachClientMatter(ctx context.Context, fn func(*ClientMatter) error) (ServiceClock, error) {
	var clk ServiceClock
	clk.Sent = time.Now()
	resp, red, err := c.send(ctx, call{ep: epListMatters, path: "/api/v1/client_matters"})
	if err != nil {
		return clk, err
	}
	clk.Received = time.Now()
	if d, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
		clk.Date = d.UTC()
	}
	err = c.walkBody(ctx, epListMatters, resp, red, "", func(it RawItem) error {
		var m ClientMatter
		if err := unmarshalItem(it.Bytes, &m); err != nil {
			return err
		}
		if err := fn(&m); err != nil {
			return callerError{err}
		}
		return nil
	}, nil)
	return clk, err
}
