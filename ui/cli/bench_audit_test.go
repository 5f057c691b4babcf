package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// benchAuditLog is a log of n entries shaped as the simulator writes them
// (about 330 bytes each), a second apart, ending an hour before fixedNow.
func benchAuditLog(n int) (*fakeAudit, int) {
	f := &fakeAudit{}
	size := 0
	end := fixedNow().Add(-time.Hour)
	types := []string{"auth:login", "api:audit_log_fetch", "api:vault_delete_project", "word:draft"}
	for i := range n {
		at := end.Add(-time.Duration(n-i) * time.Second)
		typ := types[i%len(types)]
		raw := fmt.Appendf(nil, `{"id":%q,"timestamp":%q,"type":%q,"user":"user%d@firm.test","ip":"10.0.%d.%d","user_agent":"Mozilla/5.0 (Windows NT 10.0; Win64; x64) Word/16.0","data":{"ip":"10.0.%d.%d","site":"eu-west","user_agent":"Mozilla/5.0 (Windows NT 10.0; Win64; x64) Word/16.0"}}`,
			fakeAuditID(i), at.Format(time.RFC3339Nano), typ, i%97, i%7, i%251, i%7, i%251)
		size += len(raw) + 1
		f.add(fakeAuditID(i), at, typ, raw)
	}
	return f, size
}

// BenchmarkAuditJSON100k is `vaultdeck audit --oldest --limit 0 --json` over
// a 100,000-entry log (33 MB, 101 requests: the earliest entry, then pages
// of 1,000), in process, without a mirror, output discarded; newest is
// `--newest --limit 0` over the same log, read back by search window after
// window. cpu-ms/op is the process's user+system time (the test server's
// share included); allocs/entry is allocs/op over the entries.
func BenchmarkAuditJSON100k(b *testing.B) {
	const n = 100_000
	f, size := benchAuditLog(n)
	srv := f.start()
	defer srv.Close()
	for _, order := range []string{"oldest", "newest"} {
		b.Run(order, func(b *testing.B) {
			env := auditEnv(srv.URL, "", nil, nil)
			env.Stdout, env.Stderr = io.Discard, io.Discard
			b.SetBytes(int64(size))
			b.ReportAllocs()
			var cpu time.Duration
			runs := 0
			for b.Loop() {
				c0 := cpuTime()
				if code := Main(context.Background(), []string{"audit", "--" + order, "--limit", "0", "--json"}, env); code != 0 {
					b.Fatalf("exit %d", code)
				}
				cpu += cpuTime() - c0
				runs++
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(runs), "cpu-ms/op")
		})
	}
}

// auditAllocs is the allocations of one `audit ARGS --json` over a log of
// n entries (the test server's included), output discarded, and the
// entries the server sent for it and the requests it answered.
func auditAllocs(t *testing.T, n int, args ...string) (allocs, served, requests float64) {
	f, _ := benchAuditLog(n)
	srv := f.start()
	defer srv.Close()
	var errb bytes.Buffer
	env := auditEnv(srv.URL, "", nil, &errb)
	env.Stdout = io.Discard
	args = append([]string{"audit", "--json", "--limit", "0"}, args...)
	const runs = 2
	allocs = testing.AllocsPerRun(runs, func() {
		if code := Main(context.Background(), args, env); code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
	})
	// AllocsPerRun runs once more to warm up
	return allocs, float64(f.served.Load()) / (runs + 1), float64(f.requests.Load()) / (runs + 1)
}

// maxAuditAllocsPerEntry is what one more entry sent by the service may
// cost a listing in allocations, the test server's share included.
// Decoding each entry whole (its strings, its data, its time, the
// decoder's copy of it) cost 11 an entry; the page's walk decodes only
// what paging and the filters read, into one string, beside the entry's
// own copy of its bytes (callers keep entries past their page).
const maxAuditAllocsPerEntry = 3.0

// TestAuditJSONAllocationsPerEntry: the allocations of `audit --json` grow
// by at most maxAuditAllocsPerEntry for each entry the service sends,
// forward (--oldest, --since, --type) and newest first: the difference
// between a 6,000- and a 2,000-entry log, so that what a run costs
// whatever its length (start-up, requests, pages) cancels out.
func TestAuditJSONAllocationsPerEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 8,000 entries")
	}
	since := fixedNow().Add(-10 * time.Hour).Format(time.RFC3339)
	for _, args := range [][]string{{"--oldest"}, {"--newest"}, {"--since", since}, {"--type", "auth:login", "--oldest"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			small, sentSmall, _ := auditAllocs(t, 2000, args...)
			large, sentLarge, asked := auditAllocs(t, 6000, args...)
			per := (large - small) / (sentLarge - sentSmall)
			if per > maxAuditAllocsPerEntry {
				t.Errorf("%.1f allocations an entry sent (%.0f for %.0f entries, %.0f for %.0f): want at most %.1f",
					per, small, sentSmall, large, sentLarge, maxAuditAllocsPerEntry)
			}
			// newest first reads each entry about once (it read about four
			// times each: 24,019 entries for the 6,000, in 45 requests)
			if args[0] == "--newest" && (sentLarge > 6000*1.25+1000 || asked > 7*1.5+12) {
				t.Errorf("%.0f entries sent in %.0f requests for the 6,000: want each read about once", sentLarge, asked)
			}
			t.Logf("%.2f allocations an entry sent (%.0f entries sent for the 6,000, in %.0f requests)", per, sentLarge, asked)
		})
	}
}
