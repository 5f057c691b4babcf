package api

import (
	"context"
	"runtime"
	"testing"
)

type keptAnswer struct{ v []int }

func sameAnswer(a, b *keptAnswer) bool {
	if len(a.v) != len(b.v) {
		return false
	}
	for i := range a.v {
		if a.v[i] != b.v[i] {
			return false
		}
	}
	return true
}

// TestKeepSharesEqualAnswersOfOneTokenOnly: an equal answer on the same
// token comes back as the one already held; a different answer, another
// token, another endpoint, other parameters or another base URL never do.
func TestKeepSharesEqualAnswersOfOneTokenOnly(t *testing.T) {
	share := NewShare(0)
	client := func(base, tok string) *SharedClient {
		c, err := New(Config{BaseURL: base, Token: StaticToken(tok)})
		if err != nil {
			t.Fatal(err)
		}
		return share.Client(c)
	}
	ctx := context.Background()
	a, b := client("http://127.0.0.1:1", "token-a"), client("http://127.0.0.1:1", "token-a")
	first := Keep(a, ctx, "bin", []any{1}, &keptAnswer{v: []int{1, 2, 3}}, sameAnswer)
	if got := Keep(b, ctx, "bin", []any{1}, &keptAnswer{v: []int{1, 2, 3}}, sameAnswer); got != first {
		t.Error("a second session on the same token with an equal answer did not get the one already held")
	}
	for name, keep := range map[string]func(v *keptAnswer) *keptAnswer{
		"another token": func(v *keptAnswer) *keptAnswer {
			return Keep(client("http://127.0.0.1:1", "token-b"), ctx, "bin", []any{1}, v, sameAnswer)
		},
		"another base URL": func(v *keptAnswer) *keptAnswer {
			return Keep(client("http://127.0.0.1:2", "token-a"), ctx, "bin", []any{1}, v, sameAnswer)
		},
		"another endpoint": func(v *keptAnswer) *keptAnswer { return Keep(b, ctx, "files", []any{1}, v, sameAnswer) },
		"other parameters": func(v *keptAnswer) *keptAnswer { return Keep(b, ctx, "bin", []any{2}, v, sameAnswer) },
		"a plain client":   func(v *keptAnswer) *keptAnswer { return Keep(b.Client, ctx, "bin", []any{1}, v, sameAnswer) },
		"no share (nil one)": func(v *keptAnswer) *keptAnswer {
			return Keep((*Share)(nil).Client(b.Client), ctx, "bin", []any{1}, v, sameAnswer)
		},
	} {
		if got := keep(&keptAnswer{v: []int{1, 2, 3}}); got == first {
			t.Errorf("%s got the answer held for token-a's bin", name)
		}
	}
	changed := &keptAnswer{v: []int{1, 2, 4}}
	if got := Keep(b, ctx, "bin", []any{1}, changed, sameAnswer); got != changed {
		t.Error("a different answer was replaced by the one held before")
	}
	if got := Keep(a, ctx, "bin", []any{1}, &keptAnswer{v: []int{1, 2, 4}}, sameAnswer); got != changed {
		t.Error("the newest answer is not the one held")
	}
	runtime.KeepAlive(first)
}

// TestKeepLetsGoWhenTheLastHolderLeaves: the Share holds answers weakly,
// so one nobody shows any more is freed and its key forgotten.
func TestKeepLetsGoWhenTheLastHolderLeaves(t *testing.T) {
	share := NewShare(0)
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", Token: StaticToken("token-a")})
	if err != nil {
		t.Fatal(err)
	}
	sc, ctx := share.Client(c), context.Background()
	freed := make(chan struct{})
	func() {
		v := Keep(sc, ctx, "bin", nil, &keptAnswer{v: make([]int, 1000)}, sameAnswer)
		runtime.AddCleanup(v, func(ch chan struct{}) { close(ch) }, freed)
	}()
	runtime.GC()
	<-freed // the test's deadline bounds a Share that still held it
	Keep(sc, ctx, "other", nil, &keptAnswer{}, sameAnswer)
	share.mu.Lock()
	defer share.mu.Unlock()
	if len(share.kept) != 1 {
		t.Errorf("the Share still has %d keys, want only the live one", len(share.kept))
	}
}
