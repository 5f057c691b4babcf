// Command ffstat counts what a program spends up to its first frame: it
// starts the program N times under `perf stat` on a pseudo-terminal that
// answers the background-colour query as a terminal does (as
// BenchmarkFirstFrame's does) and prints the medians of its page faults,
// which a busy machine does not move, of its task-clock (CPU of every
// thread), which a busy machine moves less than the wall time, and of the
// wall time to the mark, for reference. vaultdeck built with -tags
// firstframeexit ends itself the moment its first frame is written; any
// other program is killed once the mark is on the screen. -record keeps a
// `perf record` of each start instead (cpu-clock, or -event page-faults).
//
//	go build -tags firstframeexit -o /tmp/vd . && go run ./ui/e2e/testdata/ffstat -n 30 /tmp/vd demo
//	go build -o /tmp/ff ./ui/e2e/testdata/firstframe && go run ./ui/e2e/testdata/ffstat -n 30 -mark 'FIRST FRAME' /tmp/ff -fps 120
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

const (
	bgQuery  = "\x1b]11;?"
	bgAnswer = "\x1b]11;rgb:0000/0000/0000\x1b\\" + "\x1b[1;1R"
)

var errLost = errors.New("its output was lost")

var (
	record    string
	straceDir string
	envs      []string // -env NAME=VALUE, repeatable
	show      bool

	recordEvent = "cpu-clock"
)

type run struct {
	clockMS, faults float64
	wall            time.Duration
}

func main() {
	n := flag.Int("n", 30, "starts")
	mark := flag.String("mark", "? help", "text on screen that is the first frame")
	flag.StringVar(&record, "record", "", "instead of counting, `perf record` each start into DIR/perf.N (for perf report)")
	flag.Func("env", "`NAME=VALUE` to add to the program's environment (repeatable; e.g. GODEBUG=gctrace=1)", func(v string) error { envs = append(envs, v); return nil })
	flag.StringVar(&straceDir, "strace", "", "instead of counting, run each start under `strace -f -ttt` into DIR/strace.N (a timeline of its threads' calls)")
	flag.StringVar(&recordEvent, "event", recordEvent, "with -record: the `EVENT` to sample (cpu-clock at 20 kHz; page-faults: every one)")
	flag.BoolVar(&show, "show", false, "print what each start wrote up to its first frame (escapes stripped)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: ffstat [-n N] [-mark TEXT] PROGRAM [ARGS...]")
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "ffstat")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	var runs []run
	for i, lost := 0, 0; i < *n; i++ {
		r, err := once(dir, i, *mark, flag.Args())
		if errors.Is(err, errLost) && lost < 3 {
			// A program that ends at its first frame can lose its last
			// bytes to the pseudo-terminal's hang-up: start it again.
			lost++
			i--
			continue
		}
		if err != nil {
			fail(err)
		}
		runs = append(runs, r)
	}
	med := func(f func(run) float64) float64 {
		v := make([]float64, len(runs))
		for i, r := range runs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	fmt.Printf("%s: %d starts, medians: task-clock %.1f ms, page-faults %.0f, wall to first frame %.1f ms\n",
		filepath.Base(flag.Arg(0)), len(runs),
		med(func(r run) float64 { return r.clockMS }),
		med(func(r run) float64 { return r.faults }),
		med(func(r run) float64 { return float64(r.wall) / 1e6 }))
}

func once(dir string, i int, mark string, argv []string) (run, error) {
	out := filepath.Join(dir, "perf"+strconv.Itoa(i))
	perfArgs := []string{"stat", "-x,", "-e", "task-clock,page-faults", "-o", out, "--"}
	if record != "" {
		perfArgs = []string{"record", "-q", "-d", "-e", recordEvent, "-g", "-c", period(), "-o", filepath.Join(record, "perf."+strconv.Itoa(i)), "--"}
	}
	tool := "perf"
	if straceDir != "" {
		tool, perfArgs = "strace", []string{"-f", "-ttt", "-o", filepath.Join(straceDir, "strace."+strconv.Itoa(i)), "--"}
	}
	cmd := exec.Command(tool, append(perfArgs, argv...)...)
	home := filepath.Join(dir, "home"+strconv.Itoa(i))
	if err := os.Mkdir(home, 0o700); err != nil {
		return run{}, err
	}
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "HOME="+home, "VAULTDECK_HOME="+home, "TMPDIR="+home)
	cmd.Env = append(cmd.Env, envs...)
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 100})
	if err != nil {
		return run{}, err
	}
	defer f.Close()
	var mu sync.Mutex
	var buf bytes.Buffer
	seen := make(chan time.Duration, 1)
	go func() {
		b := make([]byte, 4096)
		answered, done := 0, false
		for {
			n, err := f.Read(b)
			mu.Lock()
			buf.Write(b[:n])
			s := buf.String()
			mu.Unlock()
			for asked := strings.Count(s, bgQuery); answered < asked; answered++ {
				_, _ = f.WriteString(bgAnswer)
			}
			if !done && strings.Contains(ansi.Strip(s), mark) {
				done = true
				seen <- time.Since(start)
			}
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	var wall time.Duration
	select {
	case wall = <-seen:
	case <-exited:
		// A program built to end at its first frame (vaultdeck with -tags
		// firstframeexit) may be gone before its last bytes are read.
		select {
		case wall = <-seen:
		case <-time.After(time.Second):
			mu.Lock()
			defer mu.Unlock()
			return run{}, fmt.Errorf("%s ended without showing %q: %q: %w", argv[0], mark, ansi.Strip(buf.String()), errLost)
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		return run{}, fmt.Errorf("%s never showed %q", argv[0], mark)
	}
	if show {
		mu.Lock()
		fmt.Printf("--- start %d\n%s\n", i, ansi.Strip(buf.String()))
		mu.Unlock()
	}
	// The program is perf's child: kill it (unless it ended by itself), and
	// perf writes its counts.
	if kids, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", cmd.Process.Pid, cmd.Process.Pid)); err == nil {
		for _, k := range strings.Fields(string(kids)) {
			pid, _ := strconv.Atoi(k)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	<-exited
	if record != "" || straceDir != "" {
		return run{wall: wall}, nil
	}
	text, err := os.ReadFile(out)
	if err != nil {
		return run{}, err
	}
	r := run{wall: wall}
	for _, line := range strings.Split(string(text), "\n") {
		f := strings.Split(line, ",")
		if len(f) < 3 {
			continue
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		switch {
		case strings.HasPrefix(f[2], "task-clock"):
			r.clockMS = v
		case strings.HasPrefix(f[2], "page-faults"):
			r.faults = v
		}
	}
	return r, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// period is perf record's sampling period: every page fault, or one
// cpu-clock sample each 50 µs.
func period() string {
	if recordEvent == "cpu-clock" {
		return "50000"
	}
	return "1"
}
