package api_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

// TestTokenInDataNeverReachesTheCaller: the fault server puts the token,
// in every form a server has been seen to echo it, into names, IDs,
// e-mails, nested unknown fields and the audit entry's data. Every read
// hands its caller (typed values, the raw JSON kept for --json and the
// console, and the body copy the response cache stores) no form of it.
func TestTokenInDataNeverReachesTheCaller(t *testing.T) {
	s := faultserver.Start(faultserver.EchoData)
	defer s.Close()
	c, err := api.New(api.Config{BaseURL: s.URL, Token: api.StaticToken(faultToken), Limits: api.Limits{Vault: -1, Audit: -1}})
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string]func(context.Context) (any, error){
		"whoami": func(ctx context.Context) (any, error) { return c.WhoAmI(ctx) },
		"projects": func(ctx context.Context) (any, error) {
			return api.ItemsOf(ctx, c.Projects(api.ProjectQuery{}))
		},
		"users": func(ctx context.Context) (any, error) { return api.ItemsOf(ctx, c.ProjectUsers(faultserver.ProjectID)) },
		"files": func(ctx context.Context) (any, error) {
			return api.ItemsOf(ctx, c.ProjectFiles(faultserver.ProjectID, api.FileQuery{}))
		},
		"status": func(ctx context.Context) (any, error) { return c.GetFiles(ctx, []string{faultserver.FileID}) },
		"recycle-bin": func(ctx context.Context) (any, error) {
			var all []string
			_, err := c.RecycleBin(api.RecycleBinQuery{}).Each(ctx, func(e *api.RecycleBinEntry, it api.RawItem) error {
				all = append(all, fmt.Sprintf("%+v", *e), string(it.Bytes))
				return nil
			}, nil)
			return all, err
		},
		"recycle-bin whole": func(ctx context.Context) (any, error) {
			return api.BinOf(c.RecycleBin(api.RecycleBinQuery{}).Collect(ctx))
		},
		"audit": func(ctx context.Context) (any, error) {
			return api.ItemsOf(ctx, c.Audit(api.AuditQuery{}))
		},
		"audit page": func(ctx context.Context) (any, error) {
			p, err := c.AuditPage(ctx, "a1", api.MaxAuditTake, "")
			if err == nil && len(p.Entries) != 1 {
				err = fmt.Errorf("the page after a1 holds %d entries, want the one with the echoed token", len(p.Entries))
			}
			return p, err
		},
	}
	for name, read := range reads {
		var mu sync.Mutex
		var copies []string
		ctx := api.WithBodyCopy(context.Background(), 1<<20, func(b []byte) {
			mu.Lock()
			copies = append(copies, string(b))
			mu.Unlock()
		})
		v, err := read(ctx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := fmt.Sprintf("%+v %s", v, v)
		if leaks(got) {
			t.Errorf("%s: the token reached the caller: %s", name, got)
		}
		if !strings.Contains(got, "[REDACTED]") {
			t.Errorf("%s: nothing was redacted, so the echo did not arrive: %s", name, got)
		}
		if len(copies) == 0 && name != "users" && name != "whoami" {
			t.Errorf("%s: no body copy", name)
		}
		for _, b := range copies {
			if leaks(b) {
				t.Errorf("%s: the token is in the body kept for the cache: %s", name, b)
			}
		}
	}
}

// leaks reports whether s holds the fault token in a recognisable form:
// its distinctive part is "secret", in any case.
func leaks(s string) bool { return strings.Contains(strings.ToLower(s), "secret") }
