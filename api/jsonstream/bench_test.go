package jsonstream_test

import (
	"bytes"
	"encoding/json"
	"testing"

	gojson "github.com/goccy/go-json"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
	"github.com/vaultdeck/vaultdeck/api/jsonstream"
)

// BenchmarkRecycleBinDecoders compares, on 100,000 entries (68 MB), the
// ways to turn the body into typed records: one stdlib decode of the whole
// document (what the client did), goccy/go-json on the whole document, and
// the streaming scanner handing each item to either library. Streaming
// keeps one item in memory; the whole-document decoders hold all of them.
func BenchmarkRecycleBinDecoders(b *testing.B) {
	body := faultserver.RecycleBinBody(100_000)
	perItem := func(unmarshal func([]byte, any) error) func(b *testing.B) {
		return func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				err := jsonstream.NewScanner(bytes.NewReader(body), jsonstream.Default).Object("items", func(raw []byte) error {
					var e api.RecycleBinEntry
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
			var rb api.RecycleBin
			if err := json.NewDecoder(bytes.NewReader(body)).Decode(&rb); err != nil || len(rb.Items) != 100_000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("goccy-document", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var rb api.RecycleBin
			if err := gojson.Unmarshal(body, &rb); err != nil || len(rb.Items) != 100_000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("scan+stdlib-items", perItem(json.Unmarshal))
	b.Run("scan+goccy-items", perItem(gojson.Unmarshal))
	b.Run("scan-only", perItem(func([]byte, any) error { return nil }))
}
