package recyclebinview

import (
	"context"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestAuditAroundDeletion: A on an entry opens the audit log a minute
// before its deletion, filtered by its deleter.
func TestAuditAroundDeletion(t *testing.T) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return fixture(), nil }}
	p := open(t, fake)
	_, cmd := p.Update(pagetest.Key("A"))
	_, msgs := pagetest.Drive(p, cmd)
	var got *page.Open
	for _, m := range msgs {
		if o, ok := m.(page.Open); ok {
			got = &o
		}
	}
	// the newest first: "Newest Deal", deleted an hour ago
	want := pagetest.Now.Add(-time.Hour-time.Minute).UTC().Format(time.RFC3339) + " ann@firm.test"
	if got == nil || got.Route != "audit" || got.Arg != want {
		t.Fatalf("A sent %+v, want :audit %s", got, want)
	}
}
