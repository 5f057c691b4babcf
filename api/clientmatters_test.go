package api_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// The client-matters listing streams every record, deleted ones with
// their time, and gives the service's clock from the Date header (the
// simulator's own clock, moved by Advance as deleted_at is).
func TestClientMattersReadsTheServiceClock(t *testing.T) {
	s, c := newSim(t, sim.Options{Seed: 1}, "admin", api.Limits{})
	s.Advance(36 * time.Hour)
	n, deleted := 0, 0
	s2, err := c.ClientMatters().Each(context.Background(), func(m *api.ClientMatter, _ api.RawItem) error {
		n++
		if m.Deleted() {
			deleted++
			if m.DeletedAt.IsZero() || !m.DeletedAt.Before(s.Now()) {
				t.Errorf("deleted_at %v", m.DeletedAt)
			}
		}
		return nil
	}, nil)
	clk := s2.Clock
	if err != nil {
		t.Fatal(err)
	}
	if n != len(s.Matters()) || deleted == 0 {
		t.Errorf("%d records (%d deleted), sim has %d", n, deleted, len(s.Matters()))
	}
	if !clk.Date.Equal(s.Now().Truncate(time.Second)) {
		t.Errorf("Date %v, want the sim's clock %v", clk.Date, s.Now())
	}
	if _, ok := clk.Offset(); !ok {
		t.Error("no offset from a Date header")
	}
}

// A listing that is not a JSON array is a malformed answer, and one with no
// Date gives no offset rather than a wrong one.
func TestClientMattersMalformedAndNoDate(t *testing.T) {
	for _, tc := range []struct{ body string }{{`{"items": []}`}, {`[{"id": "a"}, `}} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Date"] = nil // net/http adds none then
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(tc.body))
		}))
		c, err := api.New(api.Config{BaseURL: srv.URL, Token: api.StaticToken("t"), Limits: api.Limits{Matters: -1}})
		if err != nil {
			t.Fatal(err)
		}
		s, err := c.ClientMatters().Each(context.Background(), func(*api.ClientMatter, api.RawItem) error { return nil }, nil)
		clk := s.Clock
		var ae *api.Error
		if !errors.As(err, &ae) || ae.Kind != api.KindMalformed {
			t.Errorf("%s: err %v, want malformed", tc.body, err)
		}
		if _, ok := clk.Offset(); ok {
			t.Errorf("%s: an offset without a Date header", tc.body)
		}
		srv.Close()
	}
}
