package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

const faultToken = "vd/Secret+Part=42/xyz"

// TestHeadlessCommandsAgainstFaults runs every headless command of the built
// binary against every scripted fault: each ends, within its timeout, with
// exit 1 and one clear line, or succeeds after a transient fault; the token
// reaches no output in any form, and a refused redirect reaches nobody.
func TestHeadlessCommandsAgainstFaults(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	commands := [][]string{
		{"whoami"}, {"projects"}, {"users", faultserver.ProjectID}, {"files", faultserver.ProjectID},
		{"status", faultserver.FileID}, {"recycle-bin"}, {"audit", "--limit", "5"}, {"recycle-bin", "--json"},
	}
	// "" means success; otherwise the phrase the one error line must hold.
	faults := map[faultserver.Fault]string{
		faultserver.None: "", faultserver.RedirectSame: "", faultserver.EchoHeader: "", faultserver.EchoData: "",
		faultserver.Status429: "", faultserver.Status502: "", faultserver.Status503: "", faultserver.Status504: "",
		faultserver.Hung: "no answer from GET /api/", faultserver.Stall: "stopped sending after",
		faultserver.Truncate: "truncated", faultserver.EchoError: "lacks",
		faultserver.RedirectCross: "refused to follow a redirect from http://127.0.0.1:",
		faultserver.RedirectHost:  "refused to follow a redirect from http://127.0.0.1:",
	}
	for fault, want := range faults {
		t.Run(string(fault), func(t *testing.T) {
			t.Parallel()
			s := faultserver.Start(fault)
			t.Cleanup(func() {
				s.Close()
				if n := len(s.Other.Auths()); n != 0 {
					t.Errorf("the other origin received %d requests", n)
				}
			})
			// 2s, not less: 112 processes share two cores here, and a
			// server that is merely slow to be scheduled must not read as hung.
			// The commands run at once (not as parallel subtests, which
			// -parallel caps at the core count): against a hung server each
			// costs three timeouts and two backoffs.
			var wg sync.WaitGroup
			for _, args := range commands {
				wg.Go(func() {
					cmd := exec.Command(bin, append([]string{"--base-url", s.URL, "--timeout", "2s"}, args...)...)
					cmd.Env = childEnv(t, nil, "VAULTDECK_TOKEN="+faultToken, "VAULTDECK_HOME="+t.TempDir())
					var out, errb bytes.Buffer
					cmd.Stdout, cmd.Stderr = &out, &errb
					err := cmd.Run()
					code := 0
					if ee, ok := err.(*exec.ExitError); ok {
						code = ee.ExitCode()
					} else if err != nil {
						t.Error(err)
						return
					}
					all := out.String() + errb.String()
					if strings.Contains(strings.ToLower(all), "secret") {
						t.Errorf("%v: the token reached the output: %q", args, all)
					}
					if want == "" {
						if code != 0 || out.Len() == 0 || errb.Len() != 0 {
							t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
						}
						return
					}
					line := errb.String()
					if code != 1 || strings.Count(line, "\n") != 1 || !strings.HasPrefix(line, "vaultdeck "+args[0]+": ") || !strings.Contains(line, want) {
						t.Errorf("%v: exit %d, stderr %q, want one line with %q", args, code, line, want)
					}
				})
			}
			wg.Wait()
		})
	}
}

// TestRecycleBinJSON200kBoundedMemory: 200,000 entries from the simulator
// (its own process, so that the test process stays small: a child's peak RSS
// as the kernel reports it includes what it shared with its parent before
// exec) through the binary's `recycle-bin --json`, every item out, with a
// peak RSS under twice the body.
func TestRecycleBinJSON200kBoundedMemory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit", "--recycle-bin", "200000")
	cmd := exec.Command(bin, "--base-url", sp.base, "recycle-bin", "--json")
	cmd.Env = childEnv(t, nil, "VAULTDECK_TOKEN="+sp.tokens["admin"], "VAULTDECK_HOME="+t.TempDir())
	var errb bytes.Buffer
	counter := &lineCounter{}
	cmd.Stdout, cmd.Stderr = counter, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if counter.lines != 200_000+2 {
		t.Errorf("%d lines, want 200,000 items plus the opening and closing lines", counter.lines)
	}
	rssKB := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	bodyKB := int64(counter.bytes / 1024)
	t.Logf("body about %d MB, peak RSS %d MB", bodyKB>>10, rssKB>>10)
	if rssKB > 2*bodyKB {
		t.Errorf("peak RSS %d KB, over twice the body (%d KB)", rssKB, bodyKB)
	}
}

type lineCounter struct{ lines, bytes int }

func (c *lineCounter) Write(p []byte) (int, error) {
	c.lines += bytes.Count(p, []byte{'\n'})
	c.bytes += len(p)
	return len(p), nil
}

// TestWaitLineOnTerminal: on a terminal, a Retry-After wait of two seconds
// is announced on stderr (stdout goes to a file), so the command does not
// look hung; the listing then completes.
func TestWaitLineOnTerminal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := faultserver.Start(faultserver.SlowDown)
	defer s.Close()
	out := filepath.Join(t.TempDir(), "bin.json")
	ts := startTmux(t, []string{"VAULTDECK_TOKEN=" + faultToken, "VAULTDECK_HOME=" + t.TempDir()},
		"sh", "-c", bin+" --base-url "+s.URL+" recycle-bin --json > "+out)
	ts.waitForText("vaultdeck: waiting 2s: the service's vault rate limit was reached (429, nothing was accepted)")
	ts.waitFor("the command to finish", func(string) bool { dead, _ := ts.paneDead(); return dead })
	var items []json.RawMessage // the listing's one array
	if b, err := os.ReadFile(out); err != nil || json.Unmarshal(b, &items) != nil || len(items) != 1 {
		t.Errorf("output %q %v; screen:\n%s", b, err, ts.screen())
	}
}

// TestErrorLineReplacesCountOnTerminal: a listing that stalls midway, with
// stdout to a file and stderr on a terminal: the item count is cleared and
// the error line starts at the left margin, not glued to the count.
// progressCount is the item count the CLI draws on stderr while a listing
// streams ("\r\x1b[K%d items"): a number and "items" with nothing after.
var progressCount = regexp.MustCompile(`\b\d+ items\s*$|\b\d+ items(vaultdeck|\s+vaultdeck)`)

func TestErrorLineReplacesCountOnTerminal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := faultserver.Start(faultserver.StallMidway)
	defer s.Close()
	out := filepath.Join(t.TempDir(), "bin.json")
	ts := startTmux(t, []string{"VAULTDECK_TOKEN=" + faultToken, "VAULTDECK_HOME=" + t.TempDir()},
		"sh", "-c", bin+" --base-url "+s.URL+" --timeout 2s recycle-bin --json > "+out)
	// Wait for the end, then read what was written whole: under load the
	// pane may still be taking its size when the line is written, and a
	// wrapped line must not read as a missing one.
	ts.waitFor("the command to finish", func(string) bool { dead, _ := ts.paneDead(); return dead })
	screen := ts.joined()
	if !strings.Contains(screen, "stopped sending after") {
		t.Fatalf("no stall error on the terminal:\n%s", screen)
	}
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "stopped sending after") && !strings.HasPrefix(line, "vaultdeck recycle-bin: ") {
			t.Errorf("error line %q does not start the line", line)
		}
		// The progress line is "N items" on its own; the error's own
		// "(N items were written before this error)" is not a leftover.
		if leftover := progressCount.FindString(line); leftover != "" {
			t.Errorf("the count was left on screen: %q in %q", leftover, line)
		}
	}
}
