package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BenchmarkAuditMirrorQuery: the questions the console and `vaultdeck
// audit` ask of a mirror of 100,000 entries (VAULTDECK_BENCH_MIRROR_ENTRIES
// for more): the newest page, one user's or address's entries, a jump to a
// time, a type, and --grep, which reads every entry in range. One op is one
// question answered in full.
func BenchmarkAuditMirrorQuery(b *testing.B) {
	n := 100_000
	if v := os.Getenv("VAULTDECK_BENCH_MIRROR_ENTRIES"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	s, err := Open(filepath.Join(b.TempDir(), "v.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	types := []string{"auth:login", "user:word_add_in_docx_drafting", "user:outlook_add_in_ask", "admin:fetch_workspace_users", "api:audit_log_fetch"}
	prev, someIP := "", ""
	for i := 0; i < n; i += 1000 {
		page := AuditMirrorPage{Log: "L", Prev: prev}
		for k := i; k < min(i+1000, n); k++ {
			id := fmt.Sprintf("%08d-0000-7000-8000-000000000000", k)
			user := fmt.Sprintf("user%03d@firm.com", rng.IntN(220))
			ip := fmt.Sprintf("10.%d.%d.%d", rng.IntN(256), rng.IntN(256), rng.IntN(256))
			typ := types[rng.IntN(len(types))]
			if k == n/2 {
				someIP = ip
			}
			page.Entries = append(page.Entries, AuditEntry{ID: id, Time: base.Add(time.Duration(k) * time.Minute), Type: typ, User: user, IP: ip,
				Raw: fmt.Appendf(nil, `{"id":%q,"type":%q,"user":%q,"ip":%q,"data":{"site":"us"}}`, id, typ, user, ip)})
		}
		page.Cursor = page.Entries[len(page.Entries)-1].ID
		if err := s.SaveAuditPage(ctx, page); err != nil {
			b.Fatal(err)
		}
		prev = page.Cursor
	}
	mid := base.Add(time.Duration(n/2) * time.Minute)
	for _, q := range []struct {
		name string
		f    AuditFilter
	}{
		{"newest-page", AuditFilter{Newest: true, Limit: 200}},
		{"user", AuditFilter{User: "USER042@firm.com"}},
		{"ip", AuditFilter{IP: someIP}},
		{"jump-to-time", AuditFilter{Since: mid, Limit: 200}},
		{"type-newest-page", AuditFilter{Type: "auth:login", Newest: true, Limit: 200}},
		{"user-type-week", AuditFilter{User: "user042@firm.com", Type: "auth:login", Since: mid, Until: mid.Add(7 * 24 * time.Hour)}},
		{"grep-all", AuditFilter{Grep: "USER042@"}},
	} {
		b.Run(q.name, func(b *testing.B) {
			got := 0
			for b.Loop() {
				got = 0
				if err := s.AuditEntries(ctx, "L", q.f, func(AuditEntry) error { got++; return nil }); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(got), "entries")
		})
	}
}
