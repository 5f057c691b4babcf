package serve

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

func TestNextCrawl(t *testing.T) {
	now := time.Date(2026, 3, 9, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	done := func(at time.Time) store.AccessSnapshot { return store.AccessSnapshot{ID: 1, FinishedAt: at} }
	for _, tc := range []struct {
		name  string
		snaps []store.AccessSnapshot
		want  time.Duration
	}{
		{"no snapshot: crawl now", nil, 0},
		{"unfinished: resume now", []store.AccessSnapshot{{ID: 2}, done(now.Add(-time.Hour))}, 0},
		{"finished an hour ago", []store.AccessSnapshot{done(now.Add(-time.Hour))}, 23 * time.Hour},
		{"due", []store.AccessSnapshot{done(now.Add(-day))}, 0},
		{"overdue (server was down)", []store.AccessSnapshot{done(now.Add(-3 * day))}, 0},
		// A clock set back leaves the last crawl in the future: the next
		// waits one period from now, never the days the clock jumped.
		{"finished in the future (clock moved back)", []store.AccessSnapshot{done(now.Add(time.Hour))}, day},
		{"finished a week in the future", []store.AccessSnapshot{done(now.Add(7 * day))}, day},
	} {
		if got := nextCrawl(tc.snaps, day, now); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCrawlEveryServesTheSnapshot: serve --crawl-every crawls the bound
// profile once at start (it has no snapshot), and a session's :access
// view reads that snapshot without a request of its own.
func TestCrawlEveryServesTheSnapshot(t *testing.T) {
	done := make(chan store.AccessSnapshot, 4)
	f := startServerSim(t, sim.Options{Seed: sim.DefaultSeed, NoRateLimit: true}, func(c *Config) {
		c.Limits.Vault = -1
		c.CrawlEvery = 24 * time.Hour
		c.CrawlDone = func(profile string, sn store.AccessSnapshot, err error) {
			if err != nil || profile != "sim" {
				t.Errorf("crawl of %q: %v", profile, err)
			}
			done <- sn
		}
	})
	var sn store.AccessSnapshot
	select {
	case sn = <-done:
	case <-time.After(time.Minute): // a bound on a hang, not a timing assumption
		t.Fatalf("no crawl finished; log:\n%s", f.log.String())
	}
	live := 0
	for _, p := range f.sim.Projects() {
		if !p.Deleted {
			live++
		}
	}
	if !sn.Finished() || sn.Projects != live || sn.Read != live {
		t.Fatalf("snapshot %+v, want all %d projects read", sn, live)
	}
	users := usersRequests(f)
	if users != live {
		t.Fatalf("the crawl made %d users requests, want %d", users, live)
	}
	tm := f.open(f.bound, nil)
	tm.waitFor("Projects")
	tm.send(":access\r")
	tm.waitFor("snapshot 1")
	tm.waitFor("PROJECTS")
	if n := usersRequests(f); n != users {
		t.Errorf("the session's :access made %d users requests", n-users)
	}
	select {
	case sn := <-done:
		t.Fatalf("a second crawl ran within the day: %+v", sn)
	default:
	}
	tm.send("q")
}

// usersRequests counts the project-users requests the simulator received.
func usersRequests(f *fixture) int {
	f.hits.mu.Lock()
	defer f.hits.mu.Unlock()
	n := 0
	for path, c := range f.hits.n {
		if strings.HasSuffix(path, "/users") {
			n += c
		}
	}
	return n
}
