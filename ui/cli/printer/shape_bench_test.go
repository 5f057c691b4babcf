package printer

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// BenchmarkShapeJQ10k: the shaper alone (splitting, decoding, jq, printing)
// on 10,000 bin-like items written as --json writes them.
func BenchmarkShapeJQ10k(b *testing.B) {
	var doc bytes.Buffer
	doc.WriteString("[\n")
	for i := range 10000 {
		if i > 0 {
			doc.WriteString(",\n")
		}
		fmt.Fprintf(&doc, `{"id":"e-%d","resource_id":"6f1c2b1e-0000-4000-8000-%012d","resource_type":"vault_project","deleted_at":"2026-01-01T10:00:00.123456","deleted_by_user_email":"someone%d@firm.example","recycle_bin_purged_scheduled_at":"2026-02-01T10:00:00.123456","vault_project":{"id":"p-%d","name":"Acme Corp v. Halvorsen — Patent Litigation %d","files_count":%d,"size":123456789,"created_at":"2025-01-01T00:00:00","kb":false}}`, i, i, i, i, i, i)
	}
	doc.WriteString("\n]\n")
	code, err := compileJQ(".[] | .vault_project.name")
	if err != nil || code.plan != jqEach {
		b.Fatal(err)
	}
	b.SetBytes(int64(doc.Len()))
	b.ReportAllocs()
	for b.Loop() {
		s := &shaper{jq: code}
		var secret api.Secret
		s.attach(context.Background(), io.Discard, secret.RedactingWriter(io.Discard), false)
		if _, err := s.Write(doc.Bytes()); err != nil || s.close() != nil {
			b.Fatal(err)
		}
	}
}
