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

// hostileCalls are reads of every shape: streamed (the recycle bin),
// enveloped pages (projects, files), plain bodies (whoami, audit's earliest
// entry) and the audit listing's page, walked and held whole.
var hostileCalls = []string{"recycle-bin", "projects", "files", "whoami", "audit", "audit page"}

func hostileClient(t *testing.T, s *faultserver.Server, to api.Timeouts) *api.Client {
	t.Helper()
	c, err := api.New(api.Config{BaseURL: s.URL, Token: api.StaticToken(faultToken),
		Limits: api.Limits{Vault: -1, Audit: -1}, Clock: instantClock{}, Timeouts: to})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHugeStringStopsAtALimit: one name that is a 2 GiB string ends every
// read with a too-large error naming the endpoint and the limit, after the
// server got to send only a few MB of it.
func TestHugeStringStopsAtALimit(t *testing.T) {
	for _, name := range hostileCalls {
		t.Run(name, func(t *testing.T) {
			s := faultserver.Start(faultserver.HugeString)
			defer s.Close()
			err := calls[name](context.Background(), hostileClient(t, s, api.Timeouts{}))
			var ae *api.Error
			if !errors.As(err, &ae) || ae.Kind != api.KindTooLarge {
				t.Fatalf("want a too-large error, got %v", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "GET /api/") || !strings.Contains(msg, "1 MiB limit for a string") || strings.Contains(msg, "\n") {
				t.Errorf("message %q", msg)
			}
			if sent := s.Sent(); sent > 64<<20 {
				t.Errorf("the server got to send %d MB", sent>>20)
			}
		})
	}
}

// TestEndlessBodyEndsInTime: a body that never ends (whitespace, or items
// forever) is never silent, so only the whole-response bound ends it: a
// timeout naming the endpoint and the total; a body held whole ends sooner
// at its size limit.
func TestEndlessBodyEndsInTime(t *testing.T) {
	to := api.Timeouts{FirstByte: 5 * time.Second, BodyStall: 5 * time.Second, Total: 2 * time.Second}
	for _, fault := range []faultserver.Fault{faultserver.EndlessSpace, faultserver.EndlessArray} {
		for _, name := range hostileCalls {
			t.Run(string(fault)+"/"+name, func(t *testing.T) {
				s := faultserver.Start(fault)
				defer s.Close()
				done := make(chan error, 1)
				go func() { done <- calls[name](context.Background(), hostileClient(t, s, to)) }()
				var err error
				select {
				case err = <-done:
				case <-time.After(60 * time.Second): // a guard against a hang, not a timing assertion
					t.Fatal("the read never ends")
				}
				var ae *api.Error
				if !errors.As(err, &ae) {
					t.Fatalf("want an API error, got %v", err)
				}
				switch {
				case ae.Kind == api.KindTimeout && ae.Total:
					if !strings.Contains(err.Error(), "was still sending after 2s in all") {
						t.Errorf("message %q", err)
					}
				case ae.Kind == api.KindTooLarge && name != "recycle-bin":
					// a page of the audit listing stops sooner still, at the entries asked for
					held := strings.Contains(err.Error(), "16 MiB limit for an answer held whole")
					if asked := strings.Contains(err.Error(), "more than the 1,000 entries asked for"); !held && !(asked && name == "audit page") {
						t.Errorf("message %q", err)
					}
				default:
					t.Errorf("got %v", err)
				}
			})
		}
	}
}

// TestEndlessBinHeldIsBounded: a recycle bin whose entries never end stops,
// for a caller that holds every entry (the console, serve), at
// MaxHeldEntries with one line that points to --json, long before the
// whole-answer time bound.
func TestEndlessBinHeldIsBounded(t *testing.T) {
	s := faultserver.Start(faultserver.EndlessArray)
	defer s.Close()
	_, _, err := hostileClient(t, s, api.Timeouts{}).RecycleBin(api.RecycleBinQuery{}).Collect(context.Background())
	var ae *api.Error
	if !errors.As(err, &ae) || ae.Kind != api.KindTooLarge || !strings.Contains(err.Error(), "more than 150,000 entries") || !strings.Contains(err.Error(), "--json") {
		t.Fatalf("got %v", err)
	}
}
