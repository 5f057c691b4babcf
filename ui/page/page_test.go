package page

import (
	"testing"
	"time"
)

type mapCache map[string][]byte

func (m mapCache) Get(k string) ([]byte, time.Time, bool) {
	b, ok := m[k]
	return b, time.Unix(1, 0), ok
}
func (m mapCache) Put(k string, b []byte) { m[k] = b }

func TestRequestsDropSuperseded(t *testing.T) {
	var r Requests
	a := r.Next(3)
	b := r.Next(3)
	if r.Current(a) || !r.Current(b) || b.Target() != 3 {
		t.Error("sequence tagging broken")
	}
}

func TestCachedRoundTrip(t *testing.T) {
	c := mapCache{}
	Remember(c, "k", []int{1, 2})
	var got []int
	if _, ok := Cached(c, "k", &got); !ok || len(got) != 2 {
		t.Fatal("round trip failed")
	}
	if _, ok := Cached(nil, "k", &got); ok {
		t.Error("nil cache hit")
	}
	var ids IDs
	if ids.Next() == ids.Next() {
		t.Error("ids repeat")
	}
}
