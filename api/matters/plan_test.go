package matters

import (
	"testing"
	"time"
)

// Two different pairs with the same 64-bit hash must not be taken for
// repeats of each other: the second goes to the exact map.
func TestDedupHashCollision(t *testing.T) {
	pairs := []Pair{{1, "A", "1"}, {2, "B", "2"}, {3, " B", "2 "}}
	d := newDedup(3)
	if _, dup := d.add(trimmed(pairs[0]), 0, pairs); dup {
		t.Fatal("first pair is a duplicate")
	}
	d.byHash[d.sum(trimmed(pairs[1]))] = 0 // B collides with A
	if _, dup := d.add(trimmed(pairs[1]), 1, pairs); dup {
		t.Fatal("a hash collision was taken for a duplicate")
	}
	if first, dup := d.add(trimmed(pairs[2]), 2, pairs); !dup || first != 1 {
		t.Fatalf("repeat of B: first %d dup %v", first, dup)
	}
}

func TestPlanRequestsAndMinDuration(t *testing.T) {
	pairs := make([]Pair, 0, 20_001)
	for i := range 20_001 {
		pairs = append(pairs, Pair{Line: i + 1, ClientID: "C", MatterID: string(rune('a'+i%26)) + itoa(i)})
	}
	p := NewPlan(pairs, 0)
	if p.Requests() != 3 || len(p.Batch(2)) != 1 || p.MinDuration() != 0 {
		t.Fatalf("requests %d last %d min %v", p.Requests(), len(p.Batch(2)), p.MinDuration())
	}
	p.BatchSize = 1
	p.PerMinute = 150
	if got := p.MinDuration(); got != 133*time.Minute {
		t.Errorf("20,001 requests at 150 a minute: %v, want 133m", got)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
