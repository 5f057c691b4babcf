package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestWatchPrintsNoEscapeOfTheServer: `status --watch` printed the name
// cleaned but the processing status as the server sent it, so a status
// carrying an escape sequence reached the terminal. The watch now prints
// the one tracker's cleaned strings, as File status does.
func TestWatchPrintsNoEscapeOfTheServer(t *testing.T) {
	ids := []string{"0b8e2f40-3c1a-4e55-9a0b-2d6c1e7f9a10"}
	// The simulator refuses such a status: a server that sends one.
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/api/v1/vault/get_files" {
					next.ServeHTTP(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"response":{"content":[{"file_id":%q,"file_name":"memo\u001b]52;c;ZXZpbA==\u0007.pdf","processing_status":"processing\u001b[2J\u001b[31m"}]}}`, ids[0])
			})
		}})
	s := e.Sim
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock := &simClock{s: s, max: 1, cancel: cancel}
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Clock: clock, Limits: api.Limits{Vault: -1},
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}[k]
		}}
	Main(ctx, []string{"status", "--watch", ids[0]}, env)
	if !strings.Contains(out.String(), ids[0]) {
		t.Fatalf("the file was not printed: %q %q", out.String(), errb.String())
	}
	if strings.ContainsAny(out.String(), "\x1b\x07") {
		t.Errorf("an escape of the server reached the terminal: %q", out.String())
	}
}
