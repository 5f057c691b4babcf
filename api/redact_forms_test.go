package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// slashToken has the characters that escape differently in URLs and JSON.
const slashToken = "vd/Secret+Part=42/xyz"

// leaks reports whether s holds the token in any recognisable form: every
// test token's distinctive part is "secret", in any case.
func leaks(s string) bool { return strings.Contains(strings.ToLower(s), "secret") }

// echoForms are the ways a server has been seen to echo a token, as JSON
// string contents.
func echoForms(tok string) map[string]string {
	jsonSlash := strings.ReplaceAll(tok, "/", `\/`)
	return map[string]string{
		"raw":        tok,
		"json-slash": jsonSlash,
		"json-u002f": strings.ReplaceAll(tok, "/", `\u002f`),
		"json-u002F": strings.ReplaceAll(tok, "/", `\u002F`),
		"json-all":   strings.ReplaceAll(strings.ReplaceAll(tok, "/", `\u002f`), "+", `\u002b`),
		"query":      url.QueryEscape(tok),
		"path":       url.PathEscape(tok),
		"lower":      strings.ToLower(tok),
		"upper":      strings.ToUpper(jsonSlash),
		"mixed":      "vD/sEcReT+pArT=42/XyZ",
		"bearer":     "Bearer " + tok,
	}
}

func TestTokenEchoFormsInErrorBodies(t *testing.T) {
	bodies := map[string]string{
		"error":        `{"error":"bad token %s"}`,
		"message":      `{"message":"token %s rejected"}`,
		"detail":       `{"detail":"token %s rejected"}`,
		"nested":       `{"error":{"code":"auth","detail":{"why":["token","%s"]}}}`,
		"fastapi":      `{"detail":[{"loc":["header","authorization"],"msg":"invalid","type":"value_error","input":"%s"}]}`,
		"batch":        `{"error":"invalid_request","detail":"x","validation_errors":[{"loc":["body","%s"],"type":"missing","input":"%s"}]}`,
		"html":         `<html><head><title>Denied %s</title></head></html>`,
		"text":         `denied for %s`,
		"truncated200": `{"items":[{"id":"%s"`,
	}
	calls := map[string]func(*Client) error{
		"recycle": func(c *Client) error {
			_, err := binOf(c.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
			return err
		},
		"matters": func(c *Client) error {
			_, err := c.DeleteMatters(context.Background(), []MatterPair{{"a", "b"}})
			return err
		},
	}
	n := 0
	for form, echoed := range echoForms(slashToken) {
		for bname, shape := range bodies {
			for _, status := range []int{400, 401, 403, 422, 500} {
				if bname == "truncated200" {
					status = 200
				}
				body := strings.ReplaceAll(shape, "%s", echoed)
				for cname, call := range calls {
					h := newHarness(t, jsonHandler(status, body), func(c *Config) { c.Token = StaticToken(slashToken) })
					err := call(h.c)
					if err == nil {
						t.Fatalf("%s/%s/%d/%s: no error", form, bname, status, cname)
					}
					msg := err.Error()
					for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(u) {
						msg += " | " + u.Error()
					}
					if leaks(msg) || leaks(h.logs.String()) {
						t.Errorf("%s/%s/%d/%s: token in %q", form, bname, status, cname, msg)
					}
					n++
				}
			}
		}
	}
	t.Logf("%d echo cases", n)
}

// Headers are never shown, but a server echoing the token in them must not
// get it into an error or the log either, on success or failure.
func TestTokenEchoedInHeaders(t *testing.T) {
	for _, status := range []int{200, 401, 403, 500} {
		h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Echo", r.Header.Get("Authorization"))
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", token="`+slashToken+`"`)
			w.WriteHeader(status)
			io.WriteString(w, `{"user_id":"u"}`)
		}), func(c *Config) { c.Token = StaticToken(slashToken) })
		_, err := h.c.WhoAmI(context.Background())
		if (status == 200) != (err == nil) {
			t.Fatalf("%d: %v", status, err)
		}
		if err != nil && leaks(err.Error()) || leaks(h.logs.String()) {
			t.Errorf("%d: token in %v / %s", status, err, h.logs.String())
		}
	}
}
