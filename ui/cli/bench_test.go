package cli

import (
	"bytes"
	"context"
	"fmt"
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
	var buf bytes.Buffer
	buf.WriteString(`{"items":[`)
	for i := range 200_000 {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"id":"6f1c2d3e-0000-4000-8000-%012d","resource_id":"7a1c2d3e-0000-4000-8000-%012d","resource_type":"vault_project",`+
			`"recycle_bin_status":"deleted","deleted_at":"2025-01-02T03:04:05.123456Z","recycle_bin_purged_scheduled_at":"2025-02-01T03:04:05.123456Z",`+
			`"delete_source":"customer_delete","deleted_source_id":"8b1c2d3e-0000-4000-8000-%012d","deleted_by_user_email":"user%d@harrowgate-law.com",`+
			`"vault_project":{"id":"7a1c2d3e-0000-4000-8000-%012d","name":"Project %d — Share Purchase","created_at":"2024-01-15T10:30:00.000000",`+
			`"creator_email":"creator%d@harrowgate-law.com","files_count":%d,"is_knowledge_base_project":false}}`, i, i, i, i%97, i, i, i%50, i%300)
	}
	buf.WriteString(`],"total":200000}`)
	body := buf.Bytes()
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
