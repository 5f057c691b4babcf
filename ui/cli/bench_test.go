package cli

import (
	"context"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// BenchmarkRecycleBinJSON200k is `vaultdeck recycle-bin --json` on a
// 200,000-entry bin (about 136 MB), in process, output discarded. The
// peak-heap metric is sampled after the run from the runtime's own high-water
// mark of heap in use, to show that memory does not follow the body size.
// The side-by-side against curl | python3 json.load is in BENCHMARKS.md.
func BenchmarkRecycleBinJSON200k(b *testing.B) {
	body := faultserver.RecycleBinBody(200_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	env := Env{Stdout: io.Discard, Stderr: io.Discard, Limits: api.Limits{Vault: -1},
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": "bench-token-0123", "VAULTDECK_BASE_URL": srv.URL}[k]
		}}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if code := Main(context.Background(), []string{"recycle-bin", "--json"}, env); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
