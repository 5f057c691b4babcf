package serve

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestServeMetricsCountSessions: `serve --metrics` serves the number of
// open sessions at each scrape: 0, then 1 while one is open.
func TestServeMetricsCountSessions(t *testing.T) {
	f := startServer(t)
	ms, err := f.srv.ListenMetrics("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ms.Close()
	scrape := func() string {
		resp, err := http.Get("http://" + ms.Addr.String() + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if got := scrape(); !strings.Contains(got, "vaultdeck_serve_sessions 0\n") {
		t.Fatalf("no session: %s", got)
	}
	tm := f.open(f.bound, nil)
	tm.waitFor("Acme Corp v. Halvorsen")
	if got := scrape(); !strings.Contains(got, "vaultdeck_serve_sessions 1\n") {
		t.Fatalf("one session: %s", got)
	}
	tm.send("q")
	tm.exit()
	if _, err := f.srv.ListenMetrics("0.0.0.0:0"); err == nil {
		t.Error("metrics on every address were served")
	}
}
