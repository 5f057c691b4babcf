package console

import (
	"slices"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestSavedViewsOfTheLocalViewsOpen: a saved view of the access review or
// of the receipts finds its route (:NAME matches the route's Commands)
// and opens on what it names, saying the same query (issue 31).
func TestSavedViewsOfTheLocalViewsOpen(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	for _, args := range [][]string{
		{"access", "people"}, {"access", "user", "ann@firm.test"}, {"access", "diff"},
		{"matters", "receipts"}, {"access", "receipts"}, {"access", "receipts", "4"},
	} {
		q := page.Query{Command: args}
		var found bool
		for _, r := range routes(Options{}) {
			if r.FromQuery == nil || !slices.ContainsFunc(r.Commands, func(c []string) bool { return len(args) >= len(c) && slices.Equal(args[:len(c)], c) }) {
				continue
			}
			found = true
			p, err := r.FromQuery(env, q)
			if err != nil {
				t.Fatalf("%s: %v", strings.Join(args, " "), err)
			}
			if got := p.(page.Querier).Query().Line(); got != q.Line() {
				t.Errorf("opened from %s, it says %s", q.Line(), got)
			}
		}
		if !found {
			t.Errorf("no route opens a saved %s", q.Line())
		}
	}
}
