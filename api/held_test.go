package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestHeldBoundsCountAndBytes (issue 26.3): what holds a listing's entries
// (the console and serve through RecycleBin, the table and --check) stops
// at the count bound or at the byte bound, whichever comes first, with one
// line naming the bound and the streaming ways; few entries with wide
// names used to pass the count bound and take 1.1 GB.
func TestHeldBoundsCountAndBytes(t *testing.T) {
	small := heldLimits{n: 50, bytes: 64 << 10}
	for name, width := range map[string]int{"wide": 4 << 10, "many": 10} {
		h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"items":[`))
			for i := range 100 {
				if i > 0 {
					w.Write([]byte(","))
				}
				fmt.Fprintf(w, `{"id":"e%d","vault_project":{"name":"%s"}}`, i, strings.Repeat("n", width))
			}
			w.Write([]byte(`],"total":100}`))
		}), func(c *Config) { c.Limits = Limits{Vault: -1} })
		h.c.held = small
		_, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
		want := map[string]string{"wide": "the listing's entries are over 64 KiB as sent", "many": "the listing has more than 50 entries"}[name]
		if kindOf(err) != KindTooLarge || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--jsonl") ||
			!strings.Contains(err.Error(), "--csv") || !strings.Contains(err.Error(), "GET /api/v1/vault/workspace/recycle_bin") {
			t.Errorf("%s: %v", name, err)
		}
	}
	held := Held{lim: small} // exactly at the bound passes; one byte past it does not
	for i := range 16 {
		if err := held.Add(4 << 10); err != nil {
			t.Fatalf("entry %d: %v", i+1, err)
		}
	}
	if err := held.Add(1); err == nil {
		t.Error("a byte past the 64 KiB bound passed")
	}
}
