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
// VAULTDECK_BENCH_STATS_ENTRIES=1000000 for the figure in BENCHMARKS.md):
// 220 users on two addresses each, office hours, five types and a few
// deletions, read by hour as `audit stats --since 7d --by hour` does
// (the lookback before it is empty). One op is one answer in full.
func BenchmarkStatsWeek(b *testing.B) {
	n := 20_000
	if v := os.Getenv("VAULTDECK_BENCH_STATS_ENTRIES"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	st, err := store.Open(filepath.Join(b.TempDir(), "v.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	since := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	week := 7 * 24 * time.Hour
	rng := rand.New(rand.NewPCG(1, 2))
	types := []string{"auth:login", "user:word_add_in_docx_drafting", "user:outlook_add_in_ask", "admin:fetch_workspace_users", "api:vault_delete_project"}
	prev := ""
	for i := 0; i < n; i += 5000 {
		page := store.AuditMirrorPage{Log: "L", Prev: prev}
		for k := i; k < min(i+5000, n); k++ {
			u := rng.IntN(220)
			typ := types[min(rng.IntN(len(types)*20), len(types)-1)] // deletions one in a hundred
			at := since.Add(time.Duration(k) * (week / time.Duration(n)))
			id := fmt.Sprintf("%08d-0000-7000-8000-000000000000", k)
			user, ip := fmt.Sprintf("user%03d@firm.com", u), fmt.Sprintf("10.0.%d.%d", u, rng.IntN(2))
			page.Entries = append(page.Entries, store.AuditEntry{ID: id, Time: at, Type: typ, User: user, IP: ip,
				Raw: fmt.Appendf(nil, `{"id":%q,"type":%q,"user":%q,"ip":%q}`, id, typ, user, ip)})
		}
		page.Cursor = page.Entries[len(page.Entries)-1].ID
		if err := st.SaveAuditPage(ctx, page); err != nil {
			b.Fatal(err)
		}
		prev = page.Cursor
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
