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

// TestTokenEchoedInListingIsRedacted: a server that puts the token into the
// data itself (a 200 listing) must not get it onto stdout, in any form.
func TestTokenEchoedInListingIsRedacted(t *testing.T) {
	const tok = "vd/Secret+Part=42/xyz"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"items":[{"id":"a","deleted_by_user_email":"vd\/Secret+Part=42\/xyz",` +
			`"vault_project":{"name":"VD/SECRET+PART=42/XYZ","files_count":1}}],"total":1}`))
	}))
	t.Cleanup(srv.Close)
	for _, args := range [][]string{{"recycle-bin"}, {"recycle-bin", "--json"}} {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Limits: api.Limits{Vault: -1},
			Getenv: func(k string) string {
				return map[string]string{"VAULTDECK_TOKEN": tok, "VAULTDECK_BASE_URL": srv.URL}[k]
			}}
		code := Main(context.Background(), args, env)
		if code != ExitOK || strings.Contains(strings.ToLower(out.String()+errb.String()), "secret") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}
