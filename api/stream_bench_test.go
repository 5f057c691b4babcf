package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	gojson "github.com/goccy/go-json"
)

// recycleBody is a recycle-bin listing of n entries shaped like the
// service's (about 680 bytes an entry).
func recycleBody(n int) []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"id":"6f1c2d3e-0000-4000-8000-%012d","resource_id":"7a1c2d3e-0000-4000-8000-%012d","resource_type":"vault_project",`+
			`"recycle_bin_status":"deleted","deleted_at":"2025-01-02T03:04:05.123456Z","recycle_bin_purged_scheduled_at":"2025-02-01T03:04:05.123456Z",`+
			`"delete_source":"customer_delete","deleted_source_id":"8b1c2d3e-0000-4000-8000-%012d","deleted_by_user_email":"user%d@harrowgate-law.com",`+
			`"vault_project":{"id":"7a1c2d3e-0000-4000-8000-%012d","name":"Project %d — Share Purchase","created_at":"2024-01-15T10:30:00.000000",`+
			`"creator_email":"creator%d@harrowgate-law.com","files_count":%d,"is_knowledge_base_project":false}}`, i, i, i, i%97, i, i, i%50, i%300)
	}
	fmt.Fprintf(&buf, `],"total":%d}`, n)
	return buf.Bytes()
}

// BenchmarkRecycleBinDecoders compares, on 100,000 entries (68 MB), the
// ways to turn the body into typed records: one stdlib decode of the whole
// document (what the client did), goccy/go-json on the whole document, and
// the streaming scanner handing each item to either library. Streaming
// keeps one item in memory; the whole-document decoders hold all of them.
func BenchmarkRecycleBinDecoders(b *testing.B) {
	body := recycleBody(100_000)
	perItem := func(unmarshal func([]byte, any) error) func(b *testing.B) {
		return func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				err := newScanner(bytes.NewReader(body)).object("items", func(raw []byte) error {
					var e RecycleBinEntry
					n++
					return unmarshal(raw, &e)
				}, func(string, []byte) error { return nil })
				if err != nil || n != 100_000 {
					b.Fatal(err, n)
				}
			}
		}
	}
	b.Run("stdlib-document", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var rb RecycleBin
			if err := json.NewDecoder(bytes.NewReader(body)).Decode(&rb); err != nil || len(rb.Items) != 100_000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("goccy-document", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var rb RecycleBin
			if err := gojson.Unmarshal(body, &rb); err != nil || len(rb.Items) != 100_000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("scan+stdlib-items", perItem(json.Unmarshal))
	b.Run("scan+goccy-items", perItem(gojson.Unmarshal))
	b.Run("scan-only", perItem(func([]byte, any) error { return nil }))
}
