package person_test

import (
	"math"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/person"
)

// TestMattersOfOrdersAnyUsage: total_events is the server's number; a
// comparator that subtracts two of them overflows at the extremes and
// puts the least used first.
func TestMattersOfOrdersAnyUsage(t *testing.T) {
	ms := []api.ClientMatter{
		{Name: "low", UserEmail: "a@x", TotalEvents: -5},
		{Name: "high", UserEmail: "a@x", TotalEvents: math.MaxInt64},
		{Name: "mid", UserEmail: "a@x", TotalEvents: 3},
	}
	got := person.MattersOf(ms, "a@x")
	if len(got) != 3 || got[0].Name != "high" || got[1].Name != "mid" || got[2].Name != "low" {
		names := []string{}
		for _, m := range got {
			names = append(names, m.Name)
		}
		t.Fatalf("most used first: got %v, want [high mid low]", names)
	}
}
