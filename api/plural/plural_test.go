package plural

import "testing"

// TestCountAgreesWithItsNumber: one of a thing is never "1 rows", and two
// are never "2 row" nor "2 row(s)", for the nouns the interface counts.
func TestCountAgreesWithItsNumber(t *testing.T) {
	plurals := map[string]string{
		"row": "rows", "entry": "entries", "file": "files", "request": "requests", "pair": "pairs",
		"name": "names", "batch": "batches", "matter": "matters", "project": "projects", "match": "matches",
	}
	for one, many := range plurals {
		if got := Count(1, one); got != "1 "+one {
			t.Errorf("Count(1, %q) = %q, want %q", one, got, "1 "+one)
		}
		for _, n := range []int{0, 2} {
			if got, want := Count(n, one), itoa(n)+" "+many; got != want {
				t.Errorf("Count(%d, %q) = %q, want %q", n, one, got, want)
			}
		}
		if got := Noun(3, one); got != many {
			t.Errorf("Noun(3, %q) = %q, want %q", one, got, many)
		}
	}
	if got := Count(1234, "entry"); got != "1,234 entries" {
		t.Errorf("Count(1234, entry) = %q", got)
	}
	if got := Count(2, "person", "people"); got != "2 people" {
		t.Errorf("Count(2, person, people) = %q", got)
	}
	if got := Count(1, "person", "people"); got != "1 person" {
		t.Errorf("Count(1, person, people) = %q", got)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }
