package store

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestAuditStatsQueriesSortNothing: the statistics' queries read
// audit_entries only along an index and never sort its rows (a temp
// b-tree for GROUP BY is what made a week of a million entries take 20
// s). Checked on the plan SQLite chooses, not on a clock.
func TestAuditStatsQueriesSortNothing(t *testing.T) {
	s, err := OpenWith(filepath.Join(t.TempDir(), FileName), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for name, q := range map[string]string{
		"types and buckets":       auditTypeCountsQuery,
		"users":                   auditUsersQuery,
		"hours":                   auditHoursQuery,
		"pairs":                   auditPairsQuery(false, 0),
		"pairs of a type, logins": auditPairsQuery(true, 2),
	} {
		// every ?N bound (to 0: the plan does not depend on the values)
		var args []any
		for _, m := range regexp.MustCompile(`\?(\d+)`).FindAllStringSubmatch(q, -1) {
			k, _ := strconv.Atoi(m[1])
			for len(args) < k {
				args = append(args, 0)
			}
		}
		rows, err := s.db.Query("EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		if strings.Contains(text, "SCAN audit_entries") || strings.Contains(text, "TEMP B-TREE FOR GROUP BY") || !strings.Contains(text, "SEARCH audit_entries USING COVERING INDEX") {
			t.Errorf("%s reads the entries otherwise than along a covering index:\n%s", name, text)
		}
	}
}

// TestMigrationAddsAuditStatsIndex: a mirror written at version 13 gains
// the statistics' index (version 14) with its entries intact, and the
// pairs are read from it.
func TestMigrationAddsAuditStatsIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	raw, err := openRaw(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(context.Background(), raw.db.db, 13); err != nil {
		t.Fatal(err)
	}
	for _, q := range fixtures[10] {
		if _, err := raw.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'audit_entries_user_ip'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the statistics' index is missing after migrating: %d, %v", n, err)
	}
	pairs, err := s.AuditPairs(context.Background(), "http://x|w", fromMicros(1), fromMicros(1), fromMicros(10), "", []string{"t"})
	if err != nil || len(pairs) != 1 || pairs[0].User != "u" || pairs[0].IP != "i" || pairs[0].InRange != 1 || !pairs[0].FirstLogin.Equal(fromMicros(1)) {
		t.Fatalf("pairs after migrating: %+v, %v", pairs, err)
	}
}
