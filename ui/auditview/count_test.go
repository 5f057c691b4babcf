package auditview

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// A saved view at the newest, `audit --limit N --newest --hide-own-reads`,
// reopens (:NAME) on the log's newest N entries that are not the token's
// own reads, exactly N, whatever own reads were written since (a count
// below a screen is not filled on; one past a window reads on to it),
// and says --limit N from its first frame, before its rows arrive.
func TestSavedCountReopensOnItsRows(t *testing.T) {
	for _, c := range []struct {
		n      int
		mirror bool // synced by a view before: the walk hands over to it
	}{{5, false}, {250, false}, {5, true}, {250, true}} {
		n := c.n
		t.Run(strconv.Itoa(n)+map[bool]string{true: " mirror"}[c.mirror], func(t *testing.T) {
			r := newRig(t, sim.Options{}, c.mirror, "")
			if c.mirror {
				r.run(r.m.Init()) // lands, then syncs the mirror
				if !r.m.synced {
					t.Fatal("the first view did not sync the mirror")
				}
			}
			who, err := r.client.WhoAmI(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			r.log() // an own read: one more the landing passes over
			q := page.Query{Command: []string{"audit"}, Flags: []page.Flag{{Name: "limit", Value: strconv.Itoa(n)},
				{Name: "newest", Switch: true}, {Name: "hide-own-reads", Switch: true}}}
			p, err := FromQuery(r.m.env, q)
			if err != nil {
				t.Fatal(err)
			}
			r.m = p.(*Model)
			r.m.SetSize(120, 40)
			if got := r.m.Query().Line(); got != q.Line() {
				t.Errorf("before its rows: C says %s, not %s", got, q.Line())
			}
			r.run(r.m.Init())
			if got := r.m.Query().Line(); got != q.Line() {
				t.Errorf("landed: C says %s, not %s", got, q.Line())
			}
			var want []string
			log := r.log()
			for i := len(log) - 1; i >= 0 && len(want) < n; i-- {
				e := store.AuditEntry{ID: log[i].ID, Type: string(log[i].Type), User: log[i].User}
				if !audit.IsOwnRead(e, who.Email) {
					want = append(want, log[i].ID)
				}
			}
			if len(want) != n || len(log) <= n+1 {
				t.Fatalf("the log has %d entries: the case proves nothing", len(log))
			}
			if got := r.m.Table.VisibleIDs(); !slices.Equal(got, want) {
				t.Errorf("reopened with %d rows (%s…), not the newest %d", len(got), strings.Join(got[:min(3, len(got))], " "), n)
			}
		})
	}
}
