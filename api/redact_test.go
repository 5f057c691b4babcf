package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestTokenNeverLeaks runs every error path against a server that echoes
// the token back in every way it can, and checks error strings and the
// Debug log.
func TestTokenNeverLeaks(t *testing.T) {
	echo := func(status int, shape string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			auth := r.Header.Get("Authorization")
			tok := strings.TrimPrefix(auth, "Bearer ")
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(status)
			switch shape {
			case "error":
				fmt.Fprintf(w, `{"error":"bad token %s (header %s) %s"}`, tok, auth, url.QueryEscape(tok))
			case "split":
				// the token interrupted by an escape sequence
				fmt.Fprintf(w, `{"error":"%s\u001b[31m%s"}`, tok[:5], tok[5:])
			case "batch":
				fmt.Fprintf(w, `{"error":"invalid_request","detail":"%s","validation_errors":[{"loc":["%s"],"type":"%s"}]}`, tok, tok, tok)
			case "truncated":
				fmt.Fprintf(w, `{"items":[{"id":"%s"`, tok)
			case "badtime":
				fmt.Fprintf(w, `{"items":[],"total":"%s"}`, tok)
			case "html":
				fmt.Fprintf(w, "<html>%s</html>", strings.Repeat("x", 150)+tok)
			}
		}
	}
	calls := map[string]func(*Client) error{
		"whoami": func(c *Client) error { _, err := c.WhoAmI(context.Background()); return err },
		"recycle": func(c *Client) error {
			_, err := binOf(c.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
			return err
		},
		"matters": func(c *Client) error {
			_, err := c.DeleteMatters(context.Background(), []MatterPair{{"a", "b"}})
			return err
		},
		"upload": func(c *Client) error {
			_, err := c.Upload(context.Background(), "p", []UploadFile{memFile("a", "b")}, DuplicateSkip)
			return err
		},
		"delete": func(c *Client) error { _, err := c.DeleteProject(context.Background(), "p"); return err },
	}
	statuses := []int{200, 400, 401, 403, 404, 409, 413, 429, 500, 503}
	shapes := []string{"error", "split", "batch", "truncated", "badtime", "html"}
	checked := 0
	for _, st := range statuses {
		for _, sh := range shapes {
			for name, call := range calls {
				h := newHarness(t, echo(st, sh))
				err := call(h.c)
				msg := ""
				if err != nil {
					msg = err.Error()
					for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(u) {
						msg += " | " + u.Error()
					}
					checked++
				}
				if strings.Contains(msg, secretToken) || strings.Contains(msg, "SECRET") {
					t.Errorf("%d/%s/%s: token in error: %s", st, sh, name, msg)
				}
				if logs := h.logs.String(); strings.Contains(logs, "SECRET") {
					t.Errorf("%d/%s/%s: token in log: %s", st, sh, name, logs)
				}
			}
		}
	}
	if checked < 200 {
		t.Errorf("only %d error paths exercised", checked)
	}
	// Token source failure that mentions the token.
	c, _ := New(Config{BaseURL: "http://127.0.0.1:1", Token: failingSource{}})
	if _, err := c.WhoAmI(context.Background()); err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("token source error: %v", err)
	}
	// Network error.
	h := newHarness(t, echo(200, "error"))
	h.srv.Close()
	if _, err := h.c.WhoAmI(context.Background()); err == nil || strings.Contains(err.Error(), "SECRET") || strings.Contains(h.logs.String(), "SECRET") {
		t.Errorf("network error: %v", err)
	}
	if !strings.Contains(h.logs.String(), "api request") {
		t.Errorf("no debug log lines: %q", h.logs.String())
	}
}

type failingSource struct{}

func (failingSource) Token(context.Context) (string, error) {
	return secretToken, errors.New("keyring refused token " + secretToken)
}
