package cli

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kballard/go-shellquote"
	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/store"
)

// TestStreamFaults is the stream-fault walk, as the store's fault walks
// are for its writes: every command of the tree (the every-command list,
// then each command's examples and help, so a new command is walked the day
// it has its examples) runs through Main with its stdout or its stderr
// failing at one write: full, a closed pipe, an I/O error, a short write,
// or full until space is freed; at the write's first byte, its second, its
// middle or its last. Each schedule's run must:
//   - exit non-zero when anything it wrote was lost;
//   - when stdout failed and stderr works, say so in one line naming what
//     was written ("nothing", or the bytes, and the items of a listing), and
//     those counts are what the stream took;
//   - write nothing after a write failed (no hole in the output), unless it
//     goes on from the first byte the stream refused (a follow, once space
//     is freed);
//   - send no request once its output is known lost (a job stops);
//   - record nothing that claims output that was lost: a follow's
//     checkpoint names an entry whose line reached stdout whole;
//   - end within its time.
//
// By default a seeded sample runs: for each invocation stdout's first write
// on a full disk (what `> /dev/full` does), its last write a closed pipe in
// the middle of it (what `| head -c N` does), stderr's first with an I/O
// error, and two schedules drawn from the rest. VAULTDECK_STREAM_FAULTS=all
// runs every schedule (minutes), =N draws N per invocation;
// VAULTDECK_FAULT_SEED (default 1) seeds the draw; a failure prints the
// VAULTDECK_STREAM_ONLY="invocation stream write at kind" that replays it;
// VAULTDECK_FAULT_VERBOSE=1 prints every failure, not the first 20.
func TestStreamFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("the stream-fault walk runs every command")
	}
	wk := newWalker(t)
	var w *walkWorld
	w = newWalkWorld(t, filepath.Join(t.TempDir(), "w"), func(inv invocation) { wk.each(w, inv) })
	w.everyCommand()
	wk.treeCommands(w)
	wk.report()
}

// walker runs the schedules of every invocation and keeps what failed.
type walker struct {
	t        *testing.T
	all      bool
	draw     int
	seed     uint64
	only     *onlySchedule
	verbose  bool
	failures []string
	runs     int
	scheds   int
	paths    map[string]bool // command paths walked
	classes  map[string]*failClass
	order    []string
	start    time.Time
}

// failClass is a kind of failure: how many schedules, of which commands.
type failClass struct {
	n    int
	cmds map[string]bool
}

type onlySchedule struct {
	n int
	schedule
}

func newWalker(t *testing.T) *walker {
	wk := &walker{t: t, draw: 2, seed: 1, paths: map[string]bool{}, classes: map[string]*failClass{}, start: time.Now(), verbose: os.Getenv("VAULTDECK_FAULT_VERBOSE") != ""}
	switch v := os.Getenv("VAULTDECK_STREAM_FAULTS"); {
	case v == "all":
		wk.all = true
	case v != "":
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			t.Fatalf("VAULTDECK_STREAM_FAULTS=%q: want all or a number of schedules per invocation", v)
		}
		wk.draw = n
	}
	if v := os.Getenv("VAULTDECK_FAULT_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("VAULTDECK_FAULT_SEED=%q: %v", v, err)
		}
		wk.seed = n
	}
	if v := os.Getenv("VAULTDECK_STREAM_ONLY"); v != "" {
		var o onlySchedule
		var kind string
		if _, err := fmt.Sscanf(v, "%d %s %d %d %s", &o.n, &o.stream, &o.write, &o.at, &kind); err != nil {
			t.Fatalf("VAULTDECK_STREAM_ONLY=%q: want \"invocation stream write at kind\": %v", v, err)
		}
		o.kind = faultKind(kind)
		wk.only = &o
	}
	return wk
}

// each runs inv once on streams that never fail (its writes are the
// schedules' points; it keeps the world's state as the list expects), then
// under each schedule chosen.
func (wk *walker) each(w *walkWorld, inv invocation) {
	wk.paths[commandPathOf(inv.args)] = true
	clean := wk.run(w, inv, nil)
	if wk.only != nil {
		if wk.only.n == inv.n {
			wk.check(w, inv, wk.only.schedule, wk.run(w, inv, &wk.only.schedule))
		}
		return
	}
	for _, sc := range wk.choose(inv, schedulesOf(clean)) {
		wk.check(w, inv, sc, wk.run(w, inv, &sc))
	}
}

// result is one run.
type result struct {
	code           int
	timedOut       bool
	stdout, stderr *faultStream
	checkpoint     string // the follow's checkpoint before the run
}

func (wk *walker) run(w *walkWorld, inv invocation, sc *schedule) result {
	wk.runs++
	r := result{stdout: &faultStream{name: "stdout", reqs: &w.requests}, stderr: &faultStream{name: "stderr", reqs: &w.requests}}
	if sc != nil {
		wk.scheds++
		if sc.stream == "stdout" {
			r.stdout.sched = sc
		} else {
			r.stderr.sched = sc
		}
		r.checkpoint = checkpointOf(inv)
	}
	r.code, r.timedOut = w.mainOf(inv, r.stdout, r.stderr, 30*time.Second)
	return r
}

// schedulesOf are every schedule of a run's writes: each write of each
// stream, failing at its first byte, its second, its middle and its last,
// with each kind.
func schedulesOf(clean result) []schedule {
	var out []schedule
	for _, s := range []*faultStream{clean.stdout, clean.stderr} {
		for i, size := range s.sizes {
			ats := []int{0}
			for _, at := range []int{1, size / 2, size - 1} {
				if at > 0 && at < size && !slices.Contains(ats, at) {
					ats = append(ats, at)
				}
			}
			for _, kind := range faultKinds {
				for _, at := range ats {
					out = append(out, schedule{stream: s.name, write: i + 1, at: at, kind: kind})
				}
			}
		}
	}
	return out
}

// choose is every schedule, or the sample: stdout's first write full,
// its last write a closed pipe in the middle of it, stderr's first with an
// I/O error, and wk.draw more drawn from the rest.
func (wk *walker) choose(inv invocation, all []schedule) []schedule {
	if wk.all {
		return all
	}
	last := 0
	var lastPipe []int // the schedules of stdout's last write as a closed pipe
	for _, sc := range all {
		if sc.stream == "stdout" {
			last = max(last, sc.write)
		}
	}
	for i, sc := range all {
		if sc.stream == "stdout" && sc.write == last && sc.kind == faultPipe {
			lastPipe = append(lastPipe, i)
		}
	}
	middle := -1
	if len(lastPipe) > 0 {
		middle = lastPipe[len(lastPipe)/2]
	}
	var out, rest []schedule
	for i, sc := range all {
		if i == middle || sc.write == 1 && sc.at == 0 && ((sc.stream == "stdout" && sc.kind == faultFull) || (sc.stream == "stderr" && sc.kind == faultIO)) {
			out = append(out, sc)
		} else {
			rest = append(rest, sc)
		}
	}
	rng := rand.New(rand.NewPCG(wk.seed, uint64(inv.n)))
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	return append(out, rest[:min(wk.draw, len(rest))]...)
}

// commandPathOf is the path of the command args run ("audit sync").
func commandPathOf(args []string) string {
	root := newTree(Env{}).newRoot()
	c, _, err := root.Find(args)
	if err != nil || c == nil {
		return ""
	}
	return c.CommandPath()
}

// treeCommands walks every command of the tree by its examples (the
// sample values of the examples replaced by the world's) and its --help,
// and fails a command the walk never ran.
func (wk *walker) treeCommands(w *walkWorld) {
	root := newTree(Env{}).newRoot()
	examples := commandExamples()
	var paths []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		paths = append(paths, c.CommandPath())
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	sort.Strings(paths)
	for _, p := range paths {
		for _, ex := range examples[p] {
			for _, args := range exampleArgs(w, ex) {
				w.vd(args...)
			}
		}
		w.vd(append(strings.Fields(strings.TrimPrefix(p, "vaultdeck")), "--help")...)
	}
	for _, p := range paths {
		if !wk.paths[p] {
			wk.t.Errorf("%s is a command of the tree that the walk never ran", p)
		}
	}
	wk.t.Logf("%d commands of the tree, walked in %d command lines", len(paths), w.n)
}

// exampleArgs are the vaultdeck command lines of an example (a pipe's or
// an && list's each), without redirections or comments, the example's sample
// IDs, addresses and paths replaced by the world's.
func exampleArgs(w *walkWorld, ex string) [][]string {
	if i := strings.Index(ex, " #"); i >= 0 {
		ex = ex[:i]
	}
	words, err := shellquote.Split(ex)
	if err != nil {
		w.t.Fatalf("example %q: %v", ex, err)
	}
	subst := map[string]string{
		"9c77caa6-879f-453a-bc49-4bdbddcff458": w.pid, "0f6c1d2e-2b8a-4e34-9a51-6d3a1f5b7c90": w.fids[0],
		"a.donnelly@firm.example": w.otherEmail, "m.castellano@firm.example": w.adminEmail,
		"march-closures.csv": w.mf, "./exhibits": w.up,
	}
	var out [][]string
	var cur []string
	inCmd, skip := false, false
	end := func() {
		if inCmd && len(cur) > 0 {
			out = append(out, cur)
		}
		cur, inCmd, skip = nil, false, false
	}
	for _, word := range words {
		switch {
		case word == "|" || word == "&&" || word == ";":
			end()
		case word == ">" || word == ">>" || word == "<":
			skip = true
		case !inCmd:
			inCmd = word == "vaultdeck"
		case skip:
			skip = false
		default:
			if v, ok := subst[word]; ok {
				word = v
			} else if (strings.HasPrefix(word, "./") || strings.HasPrefix(word, "/")) && !strings.HasPrefix(word, "/dev/") {
				word = filepath.Join(w.root, "examples", filepath.Base(word))
			}
			cur = append(cur, word)
		}
	}
	end()
	return out
}

// checkpointOf is the follow checkpoint inv names, as its store holds it
// ("" without one).
func checkpointOf(inv invocation) string {
	name := flagValue(inv.args, "--checkpoint")
	if name == "" {
		return ""
	}
	st, err := store.Open(filepath.Join(inv.env.home, store.FileName))
	if err != nil {
		return ""
	}
	defer st.Close()
	id, _ := st.AuditCheckpoint(contextBackground(), name)
	return id
}

func flagValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v
		}
	}
	return ""
}

// report fails the test with the first failures and says what was walked.
func (wk *walker) report() {
	wk.t.Logf("%d schedules over the invocations, %d runs in %s", wk.scheds, wk.runs, time.Since(wk.start).Round(time.Second))
	for _, class := range wk.order {
		c := wk.classes[class]
		cmds := make([]string, 0, len(c.cmds))
		for k := range c.cmds {
			cmds = append(cmds, k)
		}
		sort.Strings(cmds)
		wk.t.Errorf("%s: %d schedules, of %s", class, c.n, strings.Join(cmds, ", "))
	}
	for i, f := range wk.failures {
		if i == 20 && !wk.verbose {
			wk.t.Errorf("... and %d more (VAULTDECK_FAULT_VERBOSE=1 prints them all)", len(wk.failures)-20)
			break
		}
		wk.t.Error(f)
	}
}

func (wk *walker) fail(inv invocation, sc schedule, r result, class, format string, a ...any) {
	c := wk.classes[class]
	if c == nil {
		c = &failClass{cmds: map[string]bool{}}
		wk.classes[class] = c
		wk.order = append(wk.order, class)
	}
	c.n++
	c.cmds[strings.TrimPrefix(commandPathOf(inv.args), "vaultdeck ")] = true
	wk.failures = append(wk.failures, fmt.Sprintf("%s with %s's write %d failing (%s) after %d bytes of it: %s\n\tstderr: %q\n\treplay: VAULTDECK_STREAM_ONLY=\"%d %s %d %d %s\"",
		quoteArgs(inv.args), sc.stream, sc.write, sc.kind, sc.at, fmt.Sprintf(format, a...), truncate(string(r.stderr.acked), 600),
		inv.n, sc.stream, sc.write, sc.at, sc.kind))
}

func quoteArgs(args []string) string {
	return "vaultdeck " + shellquote.Join(args...)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// lines are the complete lines of b.
func lines(b []byte) []string {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return strings.Split(string(b[:i]), "\n")
	}
	return nil
}

var reWritten = regexp.MustCompile(`: (?:nothing was written|(?:([0-9,]+) items? \()?([0-9,]+) bytes?\)? (?:was|were) written)`)
