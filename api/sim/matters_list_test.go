package sim_test

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// listed is a record of GET /api/v1/client_matters with the simulator's
// mapping to v2 pairs: client_id and matter_id on every record (empty for
// a matter made through v1) and name_delimiter, the workspace's delimiter
// a pair's stored name is built with (spec rules 4 and 5).
type listed struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	ClientID      *string `json:"client_id"`
	MatterID      *string `json:"matter_id"`
	NameDelimiter *string `json:"name_delimiter"`
	DeletedAt     *string `json:"deleted_at"`
}

// The listing says, for every record, which pairs a deletion resolves to
// it, and says it as the deletion does: a v2 record by its pair, a v1
// record by its stored name split at the delimiter. Deleting each pair the
// listing names deletes that record (or says already_absent when the
// record is deleted), whatever the delimiter.
func TestTheListingNamesThePairsADeletionResolves(t *testing.T) {
	for _, delim := range []string{"", "-"} {
		h := newHarness(t)
		h.sim.SetDelimiter(delim)
		var list []listed
		h.get("/api/v1/client_matters").json(t, &list)
		if len(list) < 100 {
			t.Fatalf("the seed lists %d matters", len(list))
		}
		want := delim
		if want == "" {
			want = "."
		}
		v1 := 0
		for _, m := range list {
			if m.ClientID == nil || m.MatterID == nil || m.NameDelimiter == nil {
				t.Fatalf("a record without the mapping's fields: %+v", m)
			}
			if *m.NameDelimiter != want {
				t.Fatalf("name_delimiter %q, want the workspace's %q", *m.NameDelimiter, want)
			}
			if *m.ClientID == "" {
				v1++
			}
		}
		if v1 == 0 {
			t.Fatal("no v1 record in the seed's listing")
		}
		// Every live v2 record, and a live v1 record whose name splits at the
		// delimiter, is deleted by its pair; a deleted one answers already_absent.
		for _, m := range list {
			c, mid := *m.ClientID, *m.MatterID
			if c == "" {
				var ok bool
				if c, mid, ok = strings.Cut(m.Name, want); !ok {
					continue // a v1 name no pair can reach with this delimiter
				}
			}
			res := h.deleteMatters(pair{c, mid})
			switch {
			case len(res.Errors) == 1 && res.Errors[0].Error == sim.ErrIdentityConflict:
				// the fixture whose pair and name point at two matters
			case m.DeletedAt != nil && len(res.AlreadyAbsent) != 1:
				t.Errorf("delim %q: deleted %q (%s, %s): %+v, want already_absent", delim, m.Name, c, mid, res)
			case m.DeletedAt == nil && len(res.Deleted) != 1 && !(len(res.Errors) == 1 && res.Errors[0].Error == sim.ErrBlocked):
				t.Errorf("delim %q: live %q (%s, %s): %+v, want deleted", delim, m.Name, c, mid, res)
			}
		}
	}
}
