package recyclebin

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestSameEntrySeesEveryField: sessions share a set only when every field
// of every entry is the same, so a field sameEntry does not compare would
// let one session show another answer's value. Each field is changed in
// turn (a field of a kind this test does not know fails it: teach both).
func TestSameEntrySeesEveryField(t *testing.T) {
	base := entry("a", "Old Matter", time.Hour, 24*time.Hour)
	base.DeletedAt.Raw = "2026-01-02T03:04:05Z"
	var walk func(path string, v reflect.Value, change func())
	n := 0
	walk = func(path string, v reflect.Value, check func()) {
		switch {
		case v.Type() == reflect.TypeOf(time.Time{}):
			v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
		case v.Kind() == reflect.Struct:
			for i := range v.NumField() {
				f := v.Field(i)
				old := reflect.New(f.Type()).Elem()
				old.Set(f)
				walk(path+"."+v.Type().Field(i).Name, f, check)
				f.Set(old)
			}
			return
		case v.Kind() == reflect.String:
			v.SetString(v.String() + "x")
		case v.Kind() == reflect.Int64:
			v.SetInt(v.Int() + 1)
		case v.Kind() == reflect.Bool:
			v.SetBool(!v.Bool())
		default:
			t.Fatalf("%s is a %s: teach sameEntry and this test to compare it", path, v.Kind())
		}
		n++
		check()
		if t.Failed() {
			t.Fatalf("sameEntry does not see a change of %s", path)
		}
	}
	changed := base
	walk("RecycleBinEntry", reflect.ValueOf(&changed).Elem(), func() {
		if sameEntry(&base, &changed) {
			t.Fail()
		}
	})
	if !sameEntry(&base, &changed) || n < 15 {
		t.Fatalf("after %d changes undone, sameEntry says the entry differs from itself", n)
	}
	// the same instant written in another zone is another answer
	other := base
	other.DeletedAt.Time = base.DeletedAt.In(time.FixedZone("", 3600))
	if sameEntry(&base, &other) {
		t.Error("the same instant in another zone counts as the same")
	}
}

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
