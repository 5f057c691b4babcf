package audit_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// BenchmarkStatsWeek: audit stats of a week holding every one of the
// mirror's entries (20,000 by default, so a CI pass stays short;
// VAULTDECK_BENCH_STATS_ENTRIES=1000000 for the figure in BENCHMARKS.md,
// and VAULTDECK_BENCH_STATS_DB=path to keep that database between runs):
// 220 users on two addresses each, office hours, five types and a few
// deletions, read by hour as `audit stats --since 7d --by hour` does
// (the lookback before it is empty). One op is one answer in full.
func BenchmarkStatsWeek(b *testing.B) {
	n := 20_000
	if v := os.Getenv("VAULTDECK_BENCH_STATS_ENTRIES"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	path := os.Getenv("VAULTDECK_BENCH_STATS_DB")
	if path == "" {
		path = filepath.Join(b.TempDir(), "v.db")
	}
	// the seed needs no fsync: nothing of it has to survive a power loss
	st, err := store.OpenWith(path, store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	since := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	week := 7 * 24 * time.Hour
	if state, err := st.AuditState(ctx, "L"); err != nil {
		b.Fatal(err)
	} else if state.Entries != int64(n) {
		if state.Entries != 0 {
			b.Fatalf("%s holds %d entries, not %d: remove it", path, state.Entries, n)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		types := []string{"auth:login", "user:word_add_in_docx_drafting", "user:outlook_add_in_ask", "admin:fetch_workspace_users", "api:vault_delete_project"}
		es := make([]store.AuditEntry, n)
		for k := range es {
			u := rng.IntN(220)
			typ := types[min(rng.IntN(len(types)*20), len(types)-1)] // deletions one in a hundred
			es[k] = store.AuditEntry{Time: since.Add(time.Duration(k) * (week / time.Duration(n))), Type: typ,
				User: fmt.Sprintf("user%03d@firm.com", u), IP: fmt.Sprintf("10.0.%d.%d", u, rng.IntN(2))}
		}
		audit.SeedMirror(b, st, "L", es)
	}
	r := audit.StatsRange{Since: since, Until: since.Add(week), By: time.Hour}
	b.ResetTimer()
	var s audit.Stats
	for b.Loop() {
		if s, err = audit.ReadStats(ctx, st, "L", r); err != nil {
			b.Fatal(err)
		}
	}
	if s.Total != n {
		b.Fatalf("counted %d of %d entries", s.Total, n)
	}
	b.ReportMetric(float64(n), "entries")
}
