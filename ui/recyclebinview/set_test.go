package recyclebinview

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestViewsNeverModifyTheSharedAnswer: the Share hands one answer to every
// session on a token, so nothing a session does (sort, the purging-soon
// and deleter filters, grouping, a name filter, a refresh) may change it.
func TestViewsNeverModifyTheSharedAnswer(t *testing.T) {
	rb := reviewBin() // not newest first: the view orders it through indexes
	before := *rb
	before.Items = slices.Clone(rb.Items)
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return rb, nil }}
	a, b := open(t, fake), open(t, fake)
	for _, k := range []string{"o", "o", "O", "p", "b", "enter", "esc", "esc", "r"} {
		a, _ = pagetest.Press(a, k)
	}
	a, _ = pagetest.Type(a, "/bob")
	if !reflect.DeepEqual(before, *rb) {
		t.Fatalf("a session changed the answer it shares:\nbefore %+v\nafter  %+v", before.Items, rb.Items)
	}
	if got := a.(*Model).shown.Len(); got != 3 {
		t.Errorf("session a shows %d entries after /bob, want 3", got)
	}
	if got := b.(*Model).shown.Len(); got != 5 || !strings.Contains(b.View(), "5 entries") {
		t.Errorf("session b shows %d entries: another session's filter reached it\n%s", got, b.View())
	}
}

// TestSessionsShareRowsNotFilters: two sessions on one token through one
// Share (serve's), opening minutes apart (two requests), hold the same
// set; each keeps its own filter and cursor over it.
func TestSessionsShareRowsNotFilters(t *testing.T) {
	b := newBinSessions(t, 300)
	pages := b.open(api.NewShare(0), nil, 2)
	one, two := pages[0].(*Model), pages[1].(*Model)
	if one.set != two.set {
		t.Fatal("two sessions with equal answers hold two sets")
	}
	p, _ := pagetest.Press(one, "p")
	p, _ = pagetest.Press(p, "j")
	p, _ = pagetest.Press(p, "j")
	one = p.(*Model)
	if one.shown.Len() >= 300 || two.shown.Len() != 300 {
		t.Errorf("after p in one session: it shows %d, the other %d (want fewer than 300, and 300)", one.shown.Len(), two.shown.Len())
	}
	if one.SelectedID() == two.SelectedID() {
		t.Errorf("both sessions' cursors are on %s", one.SelectedID())
	}
	if one.set != two.set {
		t.Error("a session's filter replaced the shared set")
	}
	var _ page.Page = one
}
