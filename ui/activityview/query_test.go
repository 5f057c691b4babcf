package activityview

import (
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestQuerySaysTheAgeAsTyped: on a clock that moves between two readings
// (every real one), :activity 2d is --since 2d, not the nanoseconds the
// clock moved on (C said --since 48h0m0.000001075s in the demo); and a
// query's words reopen the view on the same range.
func TestQuerySaysTheAgeAsTyped(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{}, true)
	at := pagetest.Now
	env.Now = func() time.Time { at = at.Add(time.Microsecond); return at }
	for arg, want := range map[string]string{"2d": "vaultdeck audit stats --since 2d --by hour",
		"36h day auth:login": "vaultdeck audit stats --since 36h --by day --type auth:login",
		"":                   "vaultdeck audit stats --since 7d --by day"} {
		q := New(env, arg).(page.Querier).Query()
		if got := q.Line(q.Format...); got != want {
			t.Errorf(":activity %s: C says %s, want %s", arg, got, want)
		}
		again, err := FromQuery(env, q)
		if err != nil || again.(page.Querier).Query().Line() != q.Line() {
			t.Errorf(":activity %s reopened: %v", arg, err)
		}
	}
}
