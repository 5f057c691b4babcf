package metrics

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// TestOnlyLoopbackAddressesAreServed: the endpoint has no authentication,
// so an address other than 127.0.0.0/8, ::1 or localhost is refused
// before anything listens.
func TestOnlyLoopbackAddressesAreServed(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:9464", "127.1.2.3:0", "[::1]:9464", "localhost:9464"} {
		if err := CheckLoopback(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"0.0.0.0:9464", ":9464", "10.0.0.5:9464", "[::]:9464", "example.com:9464", "127.0.0.1", "127.0.0.1:"} {
		if err := CheckLoopback(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if _, err := Listen(":0", NewFollow(nil, time.Now).Set); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("Listen on every address: %v", err)
	}
}

// TestFollowMetricsAreScraped: what the follow is told is what a scrape
// of the endpoint reads, the lag computed at the scrape.
func TestFollowMetricsAreScraped(t *testing.T) {
	now := time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)
	lag := func(p store.FollowProgress, at time.Time) time.Duration { return at.Sub(p.CaughtUpAt) }
	f := NewFollow(lag, func() time.Time { return now })
	f.Progressed(store.FollowProgress{CaughtUpAt: now.Add(-42 * time.Second), SuccessAt: now.Add(-40 * time.Second)}, 7)
	f.Progressed(store.FollowProgress{CaughtUpAt: now.Add(-42 * time.Second), SuccessAt: now.Add(-40 * time.Second), Failures: 3, Refused: true}, 0)
	f.BudgetWait()
	s, err := Listen("127.0.0.1:0", f.Set)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resp, err := http.Get("http://" + s.Addr.String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"vaultdeck_follow_lag_seconds 42\n", "vaultdeck_follow_entries_written_total 7\n",
		"vaultdeck_follow_consecutive_failures 3\n", "vaultdeck_follow_token_refused 1\n", "vaultdeck_budget_waits_total 1\n",
		"vaultdeck_follow_last_success_timestamp_seconds 1796194760\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the scrape lacks %q:\n%s", want, b)
		}
	}
}
