package api

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// A 403 names the permission actually missing, from whoami's list, rather
// than everything the endpoint needs.
func TestForbiddenNamesTheMissingPermission(t *testing.T) {
	cases := []struct {
		perms string
		call  func(*Client) error
		want  string
	}{
		{`["Vault API"]`, func(c *Client) error {
			_, err := usersOf(c.ProjectUsers("p").Collect(context.Background()))
			return err
		},
			"this token lacks Vault sharing (view only) or Vault sharing, which GET /api/v1/vault/projects/{project_id}/users requires (403)"},
		{`["View workspace projects"]`, func(c *Client) error {
			_, err := usersOf(c.ProjectUsers("p").Collect(context.Background()))
			return err
		},
			"this token lacks Vault API and Vault sharing (view only) or Vault sharing, which"},
		{`["Vault API","Vault sharing"]`, func(c *Client) error {
			_, err := usersOf(c.ProjectUsers("p").Collect(context.Background()))
			return err
		},
			"the token has every permission GET /api/v1/vault/projects/{project_id}/users requires"},
		{`["vault api"]`, func(c *Client) error { _, err := c.DeleteProject(context.Background(), "p"); return err },
			"this token lacks Modify workspace projects, which DELETE"},
	}
	for _, tc := range cases {
		var whoami atomic.Int32
		h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/whoami" {
				whoami.Add(1)
				w.Write([]byte(`{"user_id":"u","permissions":` + tc.perms + `}`))
				return
			}
			w.WriteHeader(403)
			w.Write([]byte(`{"error":"Forbidden"}`))
		}))
		err := tc.call(h.c)
		if kindOf(err) != KindForbidden || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant %q", tc.perms, err, tc.want)
		}
		// Asked once per token, not once per refusal.
		tc.call(h.c)
		if whoami.Load() != 1 {
			t.Errorf("%s: whoami asked %d times", tc.perms, whoami.Load())
		}
	}
}

// When whoami cannot say, the message keeps the endpoint's full list.
func TestForbiddenWithoutWhoAmIKeepsFullList(t *testing.T) {
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(403)
		w.Write([]byte(`{"error":"Forbidden"}`))
	}))
	_, err := usersOf(h.c.ProjectUsers("p").Collect(context.Background()))
	if !strings.Contains(err.Error(), "lacks Vault API, and Vault sharing (view only) or Vault sharing") {
		t.Errorf("%v", err)
	}
}
