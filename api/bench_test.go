package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// BenchmarkDecodeRecycleBin100k decodes a 100,000-entry recycle bin served
// by an in-process handler (full client path: request, stream decode).
func BenchmarkDecodeRecycleBin100k(b *testing.B) {
	body := faultserver.RecycleBinBody(100_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	c, _ := api.New(api.Config{BaseURL: srv.URL, Token: api.StaticToken("t"), Limits: api.Limits{Vault: -1}})
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		items, _, err := c.RecycleBin(api.RecycleBinQuery{}).Collect(context.Background())
		if err != nil || len(items) != 100_000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkStatus100kFiles asks get_files about 100,000 IDs against the
// simulator with rate limits off; it must take exactly 100 requests.
func BenchmarkStatus100kFiles(b *testing.B) {
	var requests atomic.Int64
	e := simtest.Start(b, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedClock},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				next.ServeHTTP(w, r)
			})
		}})
	s, c := e.Sim, e.Client
	pid, err := s.AddProject(sim.ProjectSpec{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	specs := make([]sim.FileSpec, 100_000)
	for i := range specs {
		specs[i] = sim.FileSpec{Name: fmt.Sprintf("f%06d.pdf", i), Size: 1000}
	}
	ids, err := s.AddFiles(pid, specs)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	runs := int64(0)
	for b.Loop() {
		recs, err := api.DetailsOf(c.GetFiles(context.Background(), ids))
		if err != nil || len(recs) != len(ids) || recs[0].Failed() {
			b.Fatal(err)
		}
		runs++
	}
	b.ReportMetric(float64(requests.Load())/float64(runs), "requests/op")
	if requests.Load()/runs != 100 {
		b.Fatalf("requests per run %d", requests.Load()/runs)
	}
}

// BenchmarkUnmarshalRecycleBin100k is the decode alone, without HTTP.
func BenchmarkUnmarshalRecycleBin100k(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"items":[`)
	for i := range 100_000 {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"id":"6f1c2d3e-0000-4000-8000-%012d","resource_id":"r","resource_type":"vault_project","recycle_bin_status":"deleted",`+
			`"deleted_at":"2025-01-02T03:04:05.123456Z","recycle_bin_purged_scheduled_at":"2025-02-01T03:04:05.123456Z","delete_source":"customer_delete",`+
			`"deleted_source_id":"s","deleted_by_user_email":"user@harrowgate-law.com","vault_project":{"id":"p","name":"Project %d","created_at":"2024-01-15T10:30:00.000000",`+
			`"creator_email":"c@harrowgate-law.com","files_count":3,"is_knowledge_base_project":false}}`, i, i)
	}
	buf.WriteString(`],"total":100000}`)
	body := buf.Bytes()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var rb api.RecycleBin
		if err := json.Unmarshal(body, &rb); err != nil || len(rb.Items) != 100_000 {
			b.Fatal(err)
		}
	}
}
