package api

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// failing answers status for the first n requests, then succeeds.
func failing(status, n int, body string, count *atomic.Int32) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if int(count.Add(1)) <= n {
			if strings.HasPrefix(body, "<") {
				w.Header().Set("Content-Type", "text/html")
			}
			w.WriteHeader(status)
			io.WriteString(w, body)
			return
		}
		io.WriteString(w, `{"items":[],"total":0,"deleted":[],"already_absent":[],"errors":[],"created":[]}`)
	}
}

func TestGatewayErrorsAreTransientForIdempotent(t *testing.T) {
	for _, status := range []int{429, 502, 503, 504} {
		var n atomic.Int32
		h := newHarness(t, failing(status, 2, "<html><head><title>Gateway trouble</title></head></html>", &n))
		if _, err := h.c.RecycleBin(context.Background(), RecycleBinQuery{}); err != nil {
			t.Errorf("%d: %v", status, err)
		}
		if n.Load() != 3 {
			t.Errorf("%d: %d requests, want 3", status, n.Load())
		}
		n.Store(0)
		if _, err := h.c.DeleteMatters(context.Background(), []MatterPair{{"a", "b"}}); err != nil || n.Load() != 3 {
			t.Errorf("%d: delete matters: %v after %d", status, err, n.Load())
		}
	}
}

func TestFinalStatusesAreNotRetried(t *testing.T) {
	for _, status := range []int{500, 400, 401, 403, 404, 409, 422} {
		var n atomic.Int32
		f := failing(status, 1, `{"error":"no"}`, &n)
		h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/whoami" { // a 403 asks which permission is missing
				w.WriteHeader(404)
				return
			}
			f(w, r)
		}))
		if _, err := h.c.RecycleBin(context.Background(), RecycleBinQuery{}); err == nil || n.Load() != 1 {
			t.Errorf("%d: %v after %d requests", status, err, n.Load())
		}
	}
}

// A gateway's 502, 503 or 504 does not prove the service did nothing, so a
// write is not repeated after one (a 429 does prove it: see
// TestRateLimitedWritesAreResent).
func TestNonIdempotentNeverRepeated(t *testing.T) {
	for _, status := range []int{502, 503, 504} {
		var n atomic.Int32
		h := newHarness(t, failing(status, 1000, "<html><title>x</title></html>", &n))
		_, err1 := h.c.Upload(context.Background(), "p", []UploadFile{memFile("a.pdf", "x")}, DuplicateSkip)
		_, err2 := h.c.DeleteProject(context.Background(), "p")
		_, err3 := h.c.UpsertMatters(context.Background(), []MatterPair{{"a", "b"}})
		if err1 == nil || err2 == nil || err3 == nil || n.Load() != 3 {
			t.Errorf("%d: %v / %v / %v after %d requests, want 3", status, err1, err2, err3, n.Load())
		}
	}
}

func TestHTMLErrorPageIsSummarised(t *testing.T) {
	page := "<!DOCTYPE html>\n<html><head><meta charset=utf-8><title>502 Bad Gateway</title><style>body{color:red}</style></head>" +
		"<body><h1>Bad Gateway</h1><p>The proxy server received an invalid response from an upstream server.</p>" +
		strings.Repeat("<div>padding</div>", 200) + "</body></html>"
	var n atomic.Int32
	h := newHarness(t, failing(502, 1000, page, &n))
	_, err := h.c.WhoAmI(context.Background())
	if kindOf(err) != KindServer {
		t.Fatalf("got %v", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "(502): 502 Bad Gateway (HTML page)") || strings.Contains(msg, "<") || strings.Contains(msg, "padding") {
		t.Errorf("message %q", msg)
	}
}
