package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestSameRecycleBinEntrySeesEveryField: sessions share a set only when every field
// of every entry is the same, so a field SameRecycleBinEntry does not compare would
// let one session show another answer's value. Each field is changed in
// turn (a field of a kind this test does not know fails it: teach both).
func TestSameRecycleBinEntrySeesEveryField(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := RecycleBinEntry{ID: "a", ResourceID: "r", ResourceType: "vault_project", RecycleBinStatus: "IN_RECYCLE_BIN",
		DeletedAt: Time{Time: now}, RecycleBinPurgedScheduledAt: Time{Time: now.Add(time.Hour)}, DeleteSource: "USER",
		DeletedSourceID: "s", DeletedByUserEmail: "ann@firm.test",
		VaultProject: RecycledProject{ID: "p", Name: "Old Matter", CreatedAt: Time{Time: now}, CreatorEmail: "bo@firm.test", FilesCount: 3}}
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
			t.Fatalf("%s is a %s: teach SameRecycleBinEntry and this test to compare it", path, v.Kind())
		}
		n++
		check()
		if t.Failed() {
			t.Fatalf("SameRecycleBinEntry does not see a change of %s", path)
		}
	}
	changed := base
	walk("RecycleBinEntry", reflect.ValueOf(&changed).Elem(), func() {
		if SameRecycleBinEntry(&base, &changed) {
			t.Fail()
		}
	})
	if !SameRecycleBinEntry(&base, &changed) || n < 15 {
		t.Fatalf("after %d changes undone, SameRecycleBinEntry says the entry differs from itself", n)
	}
	// the same instant written in another zone is another answer
	other := base
	other.DeletedAt.Time = base.DeletedAt.In(time.FixedZone("", 3600))
	if SameRecycleBinEntry(&base, &other) {
		t.Error("the same instant in another zone counts as the same")
	}
}

// binBodies answers the recycle bin with whatever body is current.
type binBodies struct{ body atomic.Value }

func (b *binBodies) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(b.body.Load().(string)))
}

// TestRecycleBinDecodedAgainstTheKeptAnswer: sessions on one token asking
// apart (one request each) get the answer already shown when theirs is
// equal, and a correct answer of their own whenever it differs anywhere
// (an entry changed, one more, one fewer, another total), with another
// token never given the first's.
func TestRecycleBinDecodedAgainstTheKeptAnswer(t *testing.T) {
	srv := &binBodies{}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	share := NewShare(0)
	client := func(tok string) *SharedClient {
		c, err := New(Config{BaseURL: hs.URL, Token: StaticToken(tok)})
		if err != nil {
			t.Fatal(err)
		}
		return share.Client(c)
	}
	body := func(total int, names ...string) string {
		var items []string
		for i, n := range names {
			items = append(items, fmt.Sprintf(`{"id":"e%d","deleted_by_user_email":"ann@firm.test","vault_project":{"name":%q}}`, i, n))
		}
		return fmt.Sprintf(`{"items":[%s],"total":%d}`, strings.Join(items, ","), total)
	}
	get := func(sc *SharedClient) *RecycleBin {
		rb, err := binOf(sc.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
		if err != nil {
			t.Fatal(err)
		}
		return rb
	}
	names := func(rb *RecycleBin) string {
		var out []string
		for _, e := range rb.Items {
			out = append(out, e.VaultProject.Name)
		}
		return fmt.Sprintf("%s/%d", strings.Join(out, ","), rb.Total)
	}
	srv.body.Store(body(3, "A", "B", "C"))
	first := get(client("token-a"))
	if again := get(client("token-a")); !oneAnswer(again, first) {
		t.Fatal("an equal answer fetched apart is a second copy")
	}
	if other := get(client("token-b")); oneAnswer(other, first) {
		t.Fatal("another token was given the first token's answer")
	}
	for _, c := range []struct{ body, want string }{
		{body(3, "A", "X", "C"), "A,X,C/3"},
		{body(4, "A", "B", "C", "D"), "A,B,C,D/4"},
		{body(2, "A", "B"), "A,B/2"},
		{body(4, "A", "B", "C"), "A,B,C/4"},
		{body(0), "/0"},
	} {
		srv.body.Store(body(3, "A", "B", "C"))
		kept := get(client("token-a"))
		srv.body.Store(c.body)
		got := get(client("token-a"))
		if oneAnswer(got, kept) || names(got) != c.want || names(kept) != "A,B,C/3" {
			t.Errorf("after %s: got %s (the kept answer: %v), kept now %s", c.body, names(got), oneAnswer(got, kept), names(kept))
		}
		runtime.KeepAlive(kept)
	}
	runtime.KeepAlive(first)
}

// TestRecycleBinAgainstTheKeptAnswerKeepsTheHeldBound: an answer decoded
// against the kept one (its entries equal, so none held twice) still
// stops at the Held bound, as Client.RecycleBin does.
func TestRecycleBinAgainstTheKeptAnswerKeepsTheHeldBound(t *testing.T) {
	srv := &binBodies{}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	c, err := New(Config{BaseURL: hs.URL, Token: StaticToken("token-a")})
	if err != nil {
		t.Fatal(err)
	}
	c.held = heldLimits{n: 2, bytes: 1 << 20}
	sc := NewShare(0).Client(c)
	srv.body.Store(`{"items":[{"id":"a"},{"id":"b"}],"total":2}`)
	kept, err := binOf(sc.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	srv.body.Store(`{"items":[{"id":"a"},{"id":"b"},{"id":"c"}],"total":3}`)
	if _, err := binOf(sc.RecycleBin(RecycleBinQuery{}).Collect(context.Background())); kindOf(err) != KindTooLarge {
		t.Errorf("three entries past a bound of two, decoded against the kept answer: %v", err)
	}
	runtime.KeepAlive(kept)
}
