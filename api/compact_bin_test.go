package api

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"unsafe"
)

// TestCompactedEntryIsTheSame: compacting changes where an entry's strings
// live, never what they say (every field, SameRecycleBinEntry), and the
// repeated values come out as one copy.
func TestCompactedEntryIsTheSame(t *testing.T) {
	raw := []byte(`{"id":"e1","resource_id":"r1","resource_type":"vault_project","recycle_bin_status":"pending_purge",
		"deleted_at":"2026-11-01T10:00:00Z","recycle_bin_purged_scheduled_at":"2026-12-01T10:00:00+01:00",
		"delete_source":"user","deleted_source_id":"s1","deleted_by_user_email":"a@firm.example",
		"vault_project":{"id":"p1","name":"Acme – Ünïcode","created_at":"2026-01-01T00:00:00Z","creator_email":"b@firm.example","files_count":7,"is_knowledge_base_project":true}}`)
	var in interner
	var es entries
	for i := range 3 {
		var e, want RecycleBinEntry
		if err := unmarshalItem(raw, &e); err != nil {
			t.Fatal(err)
		}
		if err := unmarshalItem(raw, &want); err != nil {
			t.Fatal(err)
		}
		compactRecycleBinEntry(&e, &in)
		if !SameRecycleBinEntry(&e, &want) {
			t.Fatalf("entry %d compacted: %+v, want %+v", i, e, want)
		}
		es.add(e)
	}
	got := es.after(nil)
	if len(got) != 3 || cap(got) != 3 {
		t.Fatalf("after: len %d cap %d, want 3 and 3", len(got), cap(got))
	}
	if len(in.m) != 5 {
		t.Errorf("interned %d values, want 5 (type, status, source, the two people): %v", len(in.m), in.m)
	}
	if unsafe.StringData(got[0].DeletedByUserEmail) != unsafe.StringData(got[2].DeletedByUserEmail) {
		t.Error("two entries' deleted_by_user_email are two copies, want one")
	}
	if unsafe.StringData(got[0].ID) == unsafe.StringData(got[1].ID) {
		t.Error("two entries share their own strings' bytes")
	}
}

// TestCollectedRecycleBinIsCompact: the bin collected by a client of its
// own (the console outside serve, the table, --check) is compacted as the
// Share's is: the entries' repeated values are one copy, not each a
// pointer into its own item's decode buffer.
func TestCollectedRecycleBinIsCompact(t *testing.T) {
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"items":[`))
		for i := range 3 {
			if i > 0 {
				w.Write([]byte(","))
			}
			fmt.Fprintf(w, `{"id":"e%d","deleted_by_user_email":"a@firm.example","vault_project":{"name":"p%d"}}`, i, i)
		}
		w.Write([]byte(`],"total":3}`))
	}), func(c *Config) { c.Limits = Limits{Vault: -1} })
	items, _, err := h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background())
	if err != nil || len(items) != 3 {
		t.Fatalf("%d entries, %v", len(items), err)
	}
	if items[2].VaultProject.Name != "p2" || items[1].ID != "e1" {
		t.Fatalf("entries %+v", items)
	}
	if unsafe.StringData(items[0].DeletedByUserEmail) != unsafe.StringData(items[2].DeletedByUserEmail) {
		t.Error("collected entries keep a copy of deleted_by_user_email each (each into its item's decode buffer), want one")
	}
}
