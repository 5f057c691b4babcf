package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

const faultToken = "vd/Secret+Part=42/xyz"

// calls are every read the headless commands make.
var calls = map[string]func(context.Context, *api.Client) error{
	"whoami": func(ctx context.Context, c *api.Client) error { _, err := c.WhoAmI(ctx); return err },
	"projects": func(ctx context.Context, c *api.Client) error {
		_, err := c.Projects(api.ProjectQuery{}).Each(ctx, func(*api.Project, api.RawItem) error { return nil }, nil)
		return err
	},
	"users": func(ctx context.Context, c *api.Client) error {
		_, err := api.UsersOf(c.ProjectUsers(faultserver.ProjectID).Collect(ctx))
		return err
	},
	"files": func(ctx context.Context, c *api.Client) error {
		_, err := c.ProjectFiles(faultserver.ProjectID, api.FileQuery{}).Each(ctx, func(*api.ProjectFile, api.RawItem) error { return nil }, nil)
		return err
	},
	"status": func(ctx context.Context, c *api.Client) error {
		_, err := api.DetailsOf(c.GetFiles(ctx, []string{faultserver.FileID}))
		return err
	},
	"recycle-bin": func(ctx context.Context, c *api.Client) error {
		_, err := c.RecycleBin(api.RecycleBinQuery{}).Each(ctx, func(*api.RecycleBinEntry, api.RawItem) error { return nil }, nil)
		return err
	},
	"audit": func(ctx context.Context, c *api.Client) error {
		_, err := c.Audit(api.AuditQuery{}).Each(ctx, func(*api.AuditEntry, api.RawItem) error { return nil }, nil)
		return err
	},
	// the page the queries, the sync and the console read (walked, not decoded whole)
	"audit page": func(ctx context.Context, c *api.Client) error {
		_, err := c.AuditPage(ctx, "a1", api.MaxAuditTake, "")
		return err
	},
}

// TestEveryCallAgainstEveryFault: each call either succeeds after a
// transient fault or ends, within its timeout, in the error of that fault;
// the token is in no error, in any form; a refused redirect reaches nobody.
func TestEveryCallAgainstEveryFault(t *testing.T) {
	want := map[faultserver.Fault]api.ErrorKind{
		faultserver.None: -1, faultserver.RedirectSame: -1, faultserver.EchoHeader: -1, faultserver.EchoData: -1,
		faultserver.Status429: -1, faultserver.Status502: -1, faultserver.Status503: -1, faultserver.Status504: -1,
		faultserver.Hung: api.KindTimeout, faultserver.Stall: api.KindTimeout, faultserver.Truncate: api.KindMalformed,
		faultserver.RedirectCross: api.KindRedirect, faultserver.RedirectHost: api.KindRedirect,
		faultserver.EchoError: api.KindForbidden,
	}
	// The wire faults (issue 40, cases 1 and 8): bytes past an answer's
	// end fail the request, and an answer that breaks HTTP is worded as
	// the protocol fault it is, not as the network.
	for _, f := range faultserver.WireFaults {
		if f != faultserver.SurplusClose { // the transport never reads past a closing answer: TestWireFaultsOverTLS says why
			want[f] = api.KindProtocol
		}
	}
	for fault, kind := range want {
		for name, call := range calls {
			t.Run(string(fault)+"/"+name, func(t *testing.T) {
				t.Parallel()
				s := faultserver.Start(fault)
				defer s.Close()
				first := 200 * time.Millisecond
				if fault == faultserver.LongHeader {
					first = 10 * time.Second // its 11 MiB header is the first byte's wait, on a loaded machine too
				}
				c, err := api.New(api.Config{BaseURL: s.URL, Token: api.StaticToken(faultToken),
					Limits: api.Limits{Vault: -1, Audit: -1}, Clock: instantClock{},
					Timeouts: api.Timeouts{FirstByte: first, BodyStall: 200 * time.Millisecond}})
				if err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- call(context.Background(), c) }()
				select {
				case err = <-done:
				case <-time.After(20 * time.Second): // a guard against a hang, not a timing assertion
					t.Fatal("the call hangs")
				}
				var ae *api.Error
				switch {
				case kind < 0 && err != nil:
					t.Fatalf("want success, got %v", err)
				case kind >= 0 && (!errors.As(err, &ae) || ae.Kind != kind):
					t.Fatalf("want %v, got %v", kind, err)
				}
				if kind == api.KindProtocol && strings.Contains(err.Error(), "Check the network") {
					t.Errorf("a protocol fault worded as the network's: %v", err)
				}
				if err != nil && strings.Contains(strings.ToLower(err.Error()), "secret") {
					t.Errorf("token in %q", err)
				}
				if n := len(s.Other.Auths()); n != 0 {
					t.Errorf("the other origin received %d requests", n)
				}
			})
		}
	}
}

// instantClock skips the backoff between retries; the timeouts under test
// run on real timers regardless.
type instantClock struct{}

func (instantClock) Now() time.Time { return time.Now() }

func (instantClock) Sleep(ctx context.Context, d time.Duration) error { return ctx.Err() }

// TestBigListingStreams: 200,000 recycle-bin entries, each handed out with
// its own bytes, through the fault server's large listing.
func TestBigListingStreams(t *testing.T) {
	s := faultserver.Start(faultserver.Big)
	defer s.Close()
	c, _ := api.New(api.Config{BaseURL: s.URL, Token: api.StaticToken(faultToken), Limits: api.Limits{Vault: -1}})
	n, bytes := 0, 0
	s2, err := c.RecycleBin(api.RecycleBinQuery{}).Each(context.Background(), func(e *api.RecycleBinEntry, it api.RawItem) error {
		raw := it.Bytes
		if e.ID == "" || raw[0] != '{' || raw[len(raw)-1] != '}' {
			return errors.New("bad item")
		}
		n++
		bytes += len(raw)
		return nil
	}, nil)
	if err != nil || n != faultserver.BigN || int(s2.Total) != faultserver.BigN {
		t.Fatalf("%v: %d items, total %d", err, n, s2.Total)
	}
}
