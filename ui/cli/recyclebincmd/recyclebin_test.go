package recyclebincmd

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// run is Run over buffers against a service answering body.
func run(t *testing.T, body string, o Options, format printer.Format) (code int, stdout, stderr string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) }))
	defer srv.Close()
	var out, errb bytes.Buffer
	o.IO = printer.New(nil, &out, &errb)
	o.IO.SetFormat(format)
	o.IO.Start(context.Background(), "recycle-bin")
	o.Client = func() (*api.Client, error) {
		return api.New(api.Config{BaseURL: srv.URL, Token: api.StaticToken("tok-bin-0123"), Limits: api.Limits{Vault: -1}})
	}
	code = o.IO.Finish(Run(context.Background(), &o))
	return code, out.String(), errb.String()
}

// TestProbeOverBuffers: the probe's Nagios line comes first and its exit
// status says whether anything purges within the window; a probe asked
// for JSON is refused before any request.
func TestProbeOverBuffers(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339) }
	body := `{"items":[` +
		`{"id":"1","resource_id":"r1","deleted_at":"2026-02-01T00:00:00Z","recycle_bin_purged_scheduled_at":"` + at(-time.Hour) + `","vault_project":{"name":"Late"}},` +
		`{"id":"2","resource_id":"r2","deleted_at":"2026-02-02T00:00:00Z","recycle_bin_purged_scheduled_at":"` + at(30*24*time.Hour) + `","vault_project":{"name":"Later"}}` +
		`],"total":2}`
	o := Options{Now: func() time.Time { return now }, Check: true}
	code, out, _ := run(t, body, o, printer.Table)
	if code != printer.ExitPartial || !strings.HasPrefix(out, "PURGE WARNING - 1 project purges within 7d (1 overdue) | purging=1;;; overdue=1;;;\n") ||
		!strings.Contains(out, "Late") || strings.Contains(out, "Later") || !strings.HasSuffix(out, "1 of 2 purge within 7d (1 overdue)\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, errText := run(t, body, o, printer.JSON)
	if code != printer.ExitUsage || out != "" || !strings.Contains(errText, "--check prints the probe's text") {
		t.Errorf("--check --json: exit %d, %q, %q", code, out, errText)
	}
	o = Options{Now: func() time.Time { return now }, Filter: purge.Filter{DeletedBy: "nobody@firm.example"}}
	if code, out, _ := run(t, body, o, printer.JSON); code != 0 || out != "[]\n" {
		t.Errorf("kept none: exit %d, %q", code, out)
	}
}
