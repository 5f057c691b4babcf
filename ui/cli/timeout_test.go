package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// TestTimeoutFlag: against a server that never answers, --timeout bounds the
// wait and the one line names the endpoint and the duration.
func TestTimeoutFlag(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Limits: api.Limits{Vault: -1},
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": "tok-SECRET-123", "VAULTDECK_BASE_URL": srv.URL}[k]
		}}
	code := Main(context.Background(), []string{"--timeout", "40ms", "whoami"}, env)
	want := "vaultdeck whoami: no answer from GET /api/whoami after 40ms"
	if code != ExitError || !strings.HasPrefix(errb.String(), want) || strings.Count(errb.String(), "\n") != 1 || out.Len() != 0 {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, errb.String(), out.String())
	}
	errb.Reset()
	if code := Main(context.Background(), []string{"--timeout", "soon", "whoami"}, env); code != ExitUsage || !strings.Contains(errb.String(), "positive duration") {
		t.Errorf("bad --timeout: %d %q", code, errb.String())
	}
}
