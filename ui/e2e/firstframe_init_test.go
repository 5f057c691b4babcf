package e2e

import (
	"bytes"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// initCost is one package's line of GODEBUG=inittrace=1: what its
// package-level variables and init functions allocated at start-up.
type initCost struct {
	pkg           string
	bytes, allocs int
}

// inittrace runs the binary with GODEBUG=inittrace=1 and returns each
// package's initialisation cost. Allocations are counts, the same on a
// busy machine as on an idle one.
func inittrace(t *testing.T, bin string, args ...string) []initCost {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = childEnv(t, []string{"GODEBUG"}, "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", bin, args, err, stderr.String())
	}
	var out []initCost
	for _, line := range strings.Split(stderr.String(), "\n") {
		// init PKG @0.5 ms, 0.01 ms clock, 1704 bytes, 31 allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("unreadable inittrace line %q", line)
		}
		out = append(out, initCost{pkg: f[1], bytes: b, allocs: a})
	}
	if len(out) == 0 {
		t.Fatalf("GODEBUG=inittrace=1 printed no init line:\n%s", stderr.String())
	}
	return out
}

// TestOurPackagesInitCheaply keeps vaultdeck's own packages' start-up
// cheap: Go initialises every linked package before main, for every
// command and the console's first frame alike, so a table, a compiled
// regexp or a map built in a package-level variable is paid by every
// start. Build such things on first use (sync.OnceValue). The largest
// package of ours allocated 31 times (api) when this was written; one
// regexp compiled at start-up allocates about as much again. Others'
// packages are logged, not judged (gojq's builtins were the largest).
func TestOurPackagesInitCheaply(t *testing.T) {
	t.Parallel()
	costs := inittrace(t, buildBinary(t), "version")
	const maxAllocs, maxBytes = 48, 8 << 10
	for _, c := range costs {
		if strings.HasPrefix(c.pkg, "github.com/vaultdeck/vaultdeck") && (c.allocs > maxAllocs || c.bytes > maxBytes) {
			t.Errorf("package %s allocates %d times (%d bytes) at start-up, before every command's first line and the console's first frame (limit %d, %d bytes): build what it holds on first use",
				c.pkg, c.allocs, c.bytes, maxAllocs, maxBytes)
		}
	}
	slices.SortFunc(costs, func(a, b initCost) int { return b.allocs - a.allocs })
	var total int
	for _, c := range costs {
		total += c.allocs
	}
	t.Logf("%d packages initialised, %d allocations in all; the largest:", len(costs), total)
	for _, c := range costs[:min(6, len(costs))] {
		t.Logf("  %-45s %6d allocs %8d bytes", c.pkg, c.allocs, c.bytes)
	}
}
