package api

import (
	"context"
	"io"
	"math"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/redact"
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
		if _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background())); err != nil {
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
		if _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background())); err == nil || n.Load() != 1 {
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

// Every form of Retry-After is a wait in [1s, MaxRetryAfter] or counts as
// absent; none is negative, none overflows, and the note quotes the value
// inert (ASCII, at most 40 characters, no token).
func TestRetryAfterForms(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	red := redact.New(secretToken)
	for _, c := range []struct {
		v    string
		want time.Duration // 0: absent
		note bool
	}{
		{"", 0, false}, {"   ", 0, false},
		{"7", 7 * time.Second, false}, {" 7 ", 7 * time.Second, false}, {"1.5", 1500 * time.Millisecond, false},
		{"0", time.Second, false}, {"0.0001", time.Second, false}, {"120", MaxRetryAfter, false},
		{"121", MaxRetryAfter, true}, {"999999999", MaxRetryAfter, true},
		{"9223372036.854775807", MaxRetryAfter, true}, {"9223372037", MaxRetryAfter, true},
		{strings.Repeat("9", 400), MaxRetryAfter, true},
		{"1e30", 0, true}, {"1e3", 0, true}, {"NaN", 0, true}, {"Inf", 0, true}, {"+Inf", 0, true}, {"-Inf", 0, true},
		{"-1", 0, true}, {"-1e30", 0, true}, {"+5", 0, true}, {"0x10", 0, true}, {"1_000", 0, true}, {".5", 0, true},
		{"5.", 5 * time.Second, false}, {"garbage", 0, true}, {"\x1b[31m5", 0, true},
		{now.Add(20 * time.Second).Format(http.TimeFormat), 20 * time.Second, false},
		{now.Add(-time.Second).Format(http.TimeFormat), 0, true},
		{now.Format(http.TimeFormat), 0, true},
		{"Fri, 31 Dec 9999 23:59:59 GMT", MaxRetryAfter, true},
		{"Sat, 01 Mar 2025 12:00:30 GMT", 30 * time.Second, false},
		{"Saturday, 01-Mar-25 12:00:30 GMT", 30 * time.Second, false},
		{"Sat Mar  1 12:00:30 2025", 30 * time.Second, false},
		{"Mon, 01 Jan 0001 00:00:00 GMT", 0, true},
		{"Bearer " + secretToken, 0, true},
	} {
		h := http.Header{"Retry-After": {c.v}}
		d, ok, clamped, note, _ := retryAfter(h, now, red)
		if ok != (c.want > 0) || d != c.want || (note != "") != c.note || clamped != (ok && note != "") {
			t.Errorf("%q: %v %v %q, want %v (note %v)", c.v, d, ok, note, c.want, c.note)
		}
		if strings.Contains(note, secretToken) || strings.ContainsRune(note, 0x1b) || len(note) > 300 {
			t.Errorf("%q: note %q", c.v, note)
		}
	}
}

// A process's own budget (no ledger; the console and serve run for days)
// meets its clock set back as the ledger does: sends a window or more ahead
// are dropped, nearer ones count as sent now, a hold past the maximum is
// dropped, and no wait is past the bound.
func TestBudgetsClockSetBack(t *testing.T) {
	b := NewBudgets()
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 10 {
		if _, ok, _ := b.reserve("far", 10, t0.Add(3*time.Hour+time.Duration(i)*time.Second)); !ok {
			t.Fatal("setup")
		}
	}
	b.block("far", 10, time.Minute, true, t0.Add(3*time.Hour))
	b.reserve("near", 1, t0.Add(30*time.Second))
	d, ok, ahead := b.reserve("far", 10, t0)
	if !ok || ahead < 3*time.Hour {
		t.Errorf("three hours set back: wait %v, ok %v, said %v ahead", d, ok, ahead)
	}
	if d, ok, _ := b.reserve("near", 1, t0); ok || d != budgetWindow {
		t.Errorf("a send 30 s ahead: wait %v ok %v, want it counted as sent at t0 (%v)", d, ok, budgetWindow)
	}
	if _, ok, _ := b.reserve("near", 1, t0.Add(budgetWindow)); !ok {
		t.Error("a send 30 s ahead held past one window from the clock set back")
	}
	// A hold given past the maximum is kept only to the maximum.
	b.block("held", 10, 1<<62, true, t0)
	if d, ok, _ := b.reserve("held", 10, t0); ok || d != MaxRetryAfter {
		t.Errorf("held: %v %v", d, ok)
	}
	if st := b.status("held", 10, t0); st.ResetIn != MaxRetryAfter {
		t.Errorf("status %+v", st)
	}
}

// Rounding a wait up for its message never wraps it negative (it read
// "Try again in -2562047h47m15s").
func TestRoundUpNeverWraps(t *testing.T) {
	for _, d := range []time.Duration{math.MaxInt64, math.MaxInt64 - time.Second + 1, 1500 * time.Millisecond} {
		if r := roundUp(d); r < d.Truncate(time.Second) || r < 0 {
			t.Errorf("roundUp(%v) = %v", d, r)
		}
	}
}
