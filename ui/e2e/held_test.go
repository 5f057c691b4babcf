package e2e

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

// TestWideEntriesBoundedByBytes (issue 26.3): 20,000 recycle-bin entries
// with 10 KB names are few entries but 200 MB of names. Whatever holds
// them (the table, which sorts, and --check) stops at the byte budget with
// one line naming it and the streaming ways, well under 300 MB; --csv and
// --jsonl stream them all.
func TestWideEntriesBoundedByBytes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := faultserver.Start(faultserver.WideNames)
	defer s.Close()
	for _, args := range [][]string{{"recycle-bin"}, {"recycle-bin", "--check"}} {
		out, errs, code, peak := runHostile(t, bin, s, args...)
		t.Logf("%v: peak RSS %d MB, exit %d, stderr %q", args, peak, code, errs)
		if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "GET /api/v1/vault/workspace/recycle_bin") ||
			!strings.Contains(errs, "MiB") || !strings.Contains(errs, "--jsonl") || !strings.Contains(errs, "--csv") {
			t.Errorf("%v: exit %d, stderr %q: want one line naming the byte bound and --jsonl/--csv", args, code, errs)
		}
		if args[len(args)-1] != "recycle-bin" && !strings.HasPrefix(strings.TrimSpace(out.first), "PURGE UNKNOWN") {
			t.Errorf("%v: the probe's line is %q", args, out.first)
		}
		if peak > 300 {
			t.Errorf("%v: peak RSS %d MB", args, peak)
		}
	}
	for _, f := range []string{"--csv", "--jsonl"} {
		out, errs, code, peak := runHostile(t, bin, s, "recycle-bin", f)
		t.Logf("recycle-bin %s: peak RSS %d MB, %d lines", f, peak, out.lines)
		if code != 0 || out.lines < 20_000 || peak > 300 {
			t.Errorf("recycle-bin %s: exit %d, %d lines, peak %d MB, stderr %q", f, code, out.lines, peak, errs)
		}
	}
	// Just under the byte bound the table is printed whole (the held rows
	// and the aligned text are both in memory for a moment), still well
	// under 300 MB.
	under := faultserver.Start(faultserver.WideNames, faultserver.Count(9_000))
	defer under.Close()
	out, errs, code, peak := runHostile(t, bin, under, "recycle-bin")
	t.Logf("recycle-bin, 9,000 x 10 KB (just under the bound): peak RSS %d MB, exit %d, %d lines", peak, code, out.lines)
	if code != 0 || out.lines != 9_002 || peak > 300 {
		t.Errorf("just under the bound: exit %d, %d lines, peak %d MB, stderr %q", code, out.lines, peak, errs)
	}
}
