package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// recorder is a second listener that records what reached it.
type recorder struct {
	mu    sync.Mutex
	auths []string
	srv   *httptest.Server
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.auths = append(r.auths, req.Header.Get("Authorization"))
		r.mu.Unlock()
		w.Write([]byte(`{"user_id":"elsewhere","email":"x@evil.example"}`))
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.auths...)
}

func TestRedirectToAnotherPortIsRefused(t *testing.T) {
	other := newRecorder(t)
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.srv.URL+"/api/whoami", http.StatusFound)
	}))
	_, err := h.c.WhoAmI(context.Background())
	if kindOf(err) != KindRedirect {
		t.Fatalf("got %v, want a refused redirect", err)
	}
	for _, origin := range []string{h.srv.URL, other.srv.URL} {
		if !strings.Contains(err.Error(), origin) {
			t.Errorf("%q does not name %s", err.Error(), origin)
		}
	}
	if got := other.got(); len(got) != 0 {
		t.Errorf("the other origin received %d requests (Authorization %q)", len(got), got)
	}
}

func TestRedirectToAnotherHostIsRefused(t *testing.T) {
	other := newRecorder(t)
	// Same port, other host name: localhost instead of 127.0.0.1.
	to := strings.Replace(other.srv.URL, "127.0.0.1", "localhost", 1)
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to+"/api/whoami", http.StatusTemporaryRedirect)
	}))
	if _, err := h.c.WhoAmI(context.Background()); kindOf(err) != KindRedirect || strings.Contains(err.Error(), "elsewhere") {
		t.Fatalf("got %v, want a refused redirect", err)
	}
	if got := other.got(); len(got) != 0 {
		t.Errorf("the other host received %d requests", len(got))
	}
}

func TestSameOriginRedirectKeepsToken(t *testing.T) {
	var seen []string
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/whoami" {
			http.Redirect(w, r, "/api/whoami/", http.StatusMovedPermanently)
			return
		}
		seen = append(seen, r.Header.Get("Authorization"))
		w.Write([]byte(`{"user_id":"u1"}`))
	}))
	w, err := h.c.WhoAmI(context.Background())
	if err != nil || w.UserID != "u1" {
		t.Fatalf("%v %+v", err, w)
	}
	if len(seen) != 1 || seen[0] != "Bearer "+secretToken {
		t.Errorf("redirected request carried %q", seen)
	}
}

// A custom HTTP client (tests, the console's shared transport) gets the same
// redirect rule.
func TestRedirectRuleAppliesToCustomClient(t *testing.T) {
	other := newRecorder(t)
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.srv.URL+"/api/whoami", http.StatusFound)
	}), func(c *Config) { c.HTTPClient = &http.Client{} })
	if _, err := h.c.WhoAmI(context.Background()); kindOf(err) != KindRedirect {
		t.Fatalf("got %v", err)
	}
	if len(other.got()) != 0 {
		t.Error("the other origin was reached")
	}
}
