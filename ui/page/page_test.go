package page

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

type mapCache map[string][]byte

func (m mapCache) Get(k string) ([]byte, time.Time, bool) {
	b, ok := m[k]
	return b, time.Unix(1, 0), ok
}
func (m mapCache) Put(k string, b []byte) { m[k] = b }
func (m mapCache) Delete(k string)        { delete(m, k) }

func TestRequestsDropSuperseded(t *testing.T) {
	var r Requests
	a := r.Next(3)
	b := r.Next(3)
	if r.Current(a) || !r.Current(b) || b.Target() != 3 {
		t.Error("sequence tagging broken")
	}
}

func TestCacheRoundTripInCommands(t *testing.T) {
	c := mapCache{}
	ctx := KeepBody(context.Background(), c, "k")
	api.OfferBody(ctx, []byte(`[1, 2]`)) // what the client does with a body as received
	if string(c["k"]) != `[1, 2]` {
		t.Fatalf("kept %q", c["k"])
	}
	decode := func(b []byte, _ time.Time) ([]int, error) {
		var v []int
		return v, json.Unmarshal(b, &v)
	}
	r := ReadCache(c, "k", Tag{View: 1}, decode)().(Result[Cached[[]int]])
	if r.Err != nil || len(r.Value.Value) != 2 || r.Kind != "cache" {
		t.Fatalf("read %+v", r)
	}
	if r := ReadCache(nil, "k", Tag{}, decode)().(Result[Cached[[]int]]); !errors.Is(r.Err, ErrNotCached) {
		t.Error("nil cache hit")
	}
	var ids IDs
	if first, second := ids.Next(), ids.Next(); first == second {
		t.Error("ids repeat")
	}
}
