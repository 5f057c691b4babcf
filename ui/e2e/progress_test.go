package e2e

import (
	"bytes"
	"context"
	"hash/maphash"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

// runHostile runs the built binary against s with args; a guard ends it
// after a minute (a hang is a failure, not a timing assertion).
func runHostile(t *testing.T, bin string, s *faultserver.Server, args ...string) (out *recordCounter, stderr string, code int, peakMB int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--base-url", s.URL}, args...)...)
	cmd.Env = childEnv(t, nil, "VAULTDECK_TOKEN="+faultToken, "VAULTDECK_HOME="+t.TempDir())
	out = &recordCounter{seen: map[uint64]bool{}}
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errb
	_ = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v still running after 90s; stderr %q, %d lines out", args, errb.String(), out.lines)
	}
	return out, errb.String(), cmd.ProcessState.ExitCode(), peakKB(cmd) >> 10
}

// TestBytesWithoutItemsAreSilence (issue 26.10): a body that goes on
// sending but brings no new listing item (whitespace between items or
// inside one, padding members, a key or brackets that never close, a
// trickle of any of them) ends like a stall, after --timeout, not after
// the whole-answer bound (30 times it).
func TestBytesWithoutItemsAreSilence(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	for _, tc := range []struct {
		fault   faultserver.Fault
		trickle time.Duration
		want    string
	}{
		{faultserver.EndlessSpace, 0, "but no new item for 1s"},
		{faultserver.SpaceAfterItems, 0, "but no new item for 1s"},
		{faultserver.EndlessPadding, 50 * time.Millisecond, "but no new item for 1s"},
		// the other forms (inside an item, a key, brackets, commas, fast
		// or slow) are
		// tried in api's TestBytesWithoutItemsEndLikeAStall
	} {
		t.Run(string(tc.fault)+"/"+tc.trickle.String(), func(t *testing.T) {
			s := faultserver.Start(tc.fault, faultserver.Trickle(tc.trickle))
			defer s.Close()
			_, errs, code, peak := runHostile(t, bin, s, "--timeout", "1s", "recycle-bin", "--json")
			if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "GET /api/v1/vault/workspace/recycle_bin") {
				t.Errorf("exit %d, stderr %q, want one line with %q", code, errs, tc.want)
			}
			if peak > 300 {
				t.Errorf("peak RSS %d MB", peak)
			}
		})
	}
}

// recordCounter counts stdout's lines, keeps the first, and counts lines
// seen before (a record written twice) by their hash: a listing's output
// may be hundreds of MB, which this process must not hold.
type recordCounter struct {
	lines, dups int
	first       string
	h           maphash.Hash
	seen        map[uint64]bool
}

func (c *recordCounter) Write(p []byte) (int, error) {
	for rest := p; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			c.h.Write(rest)
			if c.lines == 0 && len(c.first) < 200 {
				c.first += string(rest[:min(len(rest), 200)])
			}
			break
		}
		c.h.Write(rest[:i])
		if c.lines == 0 && len(c.first) < 200 {
			c.first += string(rest[:min(i, 200)])
		}
		if sum := c.h.Sum64(); c.seen[sum] {
			c.dups++
		} else {
			c.seen[sum] = true
		}
		c.h.Reset()
		c.lines++
		rest = rest[i+1:]
	}
	return len(p), nil
}
