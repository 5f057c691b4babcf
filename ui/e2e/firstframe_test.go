package e2e

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// firstFrame starts bin on a pseudo-terminal that answers like a terminal
// and returns how long it took until mark was on the screen; then it types
// q and waits for the program to end.
func firstFrame(b *testing.B, bin, mark string, env []string, args ...string) time.Duration {
	b.Helper()
	start := time.Now()
	r := startPty(b, bin, env, args...)
	var at time.Duration
	for deadline := start.Add(30 * time.Second); time.Now().Before(deadline); {
		// The mark is read without escape sequences: the footer styles
		// "?" and "help" apart, so the raw bytes never hold "? help".
		if strings.Contains(ansi.Strip(r.output()), mark) {
			at = time.Since(start)
			break
		}
		time.Sleep(200 * time.Microsecond) // fine-grained: the figure is tens of milliseconds
	}
	if at == 0 {
		b.Fatalf("%s never showed %q: %q", filepath.Base(bin), mark, r.output())
	}
	_, _ = r.f.WriteString("q")
	r.wait()
	return at
}

// BenchmarkFirstFrame measures, on the same pseudo-terminal and in the same
// run, the time from exec to the first frame of `vaultdeck demo` (its
// status line on screen) and of the smallest Bubble Tea program
// (testdata/firstframe) with Bubble Tea's default frame rate and with the
// console's (120 fps), and reports them and the ratios. Each iteration
// takes the median of 7 alternating starts of each.
//
// The same minimal program is also built with -tags linked, which links
// everything vaultdeck's binary links (the same packages initialise before
// main; the executable is as large) and still draws its one line at 120
// fps: floor120 (linked / minimal) is what linking vaultdeck's libraries
// costs a start, which nothing in the demo's own start can move, and own120
// (demo / linked) is what the demo's own set-up adds on top.
//
//	go test -run '^$' -bench BenchmarkFirstFrame -benchtime 1x ./ui/e2e
func BenchmarkFirstFrame(b *testing.B) {
	vd := buildBinary(b)
	minimal := filepath.Join(b.TempDir(), "firstframe")
	if out, err := exec.Command("go", "build", "-o", minimal, "github.com/vaultdeck/vaultdeck/ui/e2e/testdata/firstframe").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	linked := filepath.Join(b.TempDir(), "firstframe-linked")
	if out, err := exec.Command("go", "build", "-tags", "linked", "-o", linked, "github.com/vaultdeck/vaultdeck/ui/e2e/testdata/firstframe").CombinedOutput(); err != nil {
		b.Fatalf("go build -tags linked: %v\n%s", err, out)
	}
	env := []string{"VAULTDECK_HOME=" + b.TempDir()}
	median := func(ds []time.Duration) time.Duration {
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	var demoSum, minSum, min120Sum, linkedSum time.Duration
	b.ResetTimer()
	for range b.N {
		var demo, mini, mini120, link []time.Duration
		for range 7 {
			mini = append(mini, firstFrame(b, minimal, "FIRST FRAME", env))
			mini120 = append(mini120, firstFrame(b, minimal, "FIRST FRAME", env, "-fps", "120"))
			demo = append(demo, firstFrame(b, vd, "? help", env, "demo"))
			link = append(link, firstFrame(b, linked, "FIRST FRAME", env, "-fps", "120"))
		}
		demoSum += median(demo)
		minSum += median(mini)
		min120Sum += median(mini120)
		linkedSum += median(link)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(b.N) / float64(time.Millisecond) }
	b.ReportMetric(ms(demoSum), "demo-ms")
	b.ReportMetric(ms(minSum), "minimal-ms")
	b.ReportMetric(ms(min120Sum), "minimal120-ms")
	b.ReportMetric(ms(linkedSum), "linked120-ms")
	// ratio: against Bubble Tea's defaults (60 fps); ratio120: against the
	// same renderer rate as the console's (120 fps), the like-for-like one.
	b.ReportMetric(float64(demoSum)/float64(minSum), "ratio")
	b.ReportMetric(float64(demoSum)/float64(min120Sum), "ratio120")
	b.ReportMetric(float64(linkedSum)/float64(min120Sum), "floor120")
	b.ReportMetric(float64(demoSum)/float64(linkedSum), "own120")
}
