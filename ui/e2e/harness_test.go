package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The package's tests run in parallel (TestEveryTestRunsInParallel holds
// every new test to it). What they share is built once and only read: the
// binary. Everything a test's processes write is its own: a tmux server on
// a socket in the test's temporary directory, simulators and servers on
// port 0, and the environment from childEnv (HOME, XDG_*, VAULTDECK_HOME
// and TMPDIR under the test's temporary directory), passed to the child,
// never set in this process (t.Setenv forbids t.Parallel; os.Setenv would
// leak into every other test).

// waitingParallelism is how many of this package's tests run at once when
// `go test` is not given -parallel. Its tests mostly wait (for a screen, a
// budget window, a process to end): the whole package burns about 100 s
// of CPU that the go command counts, but its longest tests wait a real
// minute, so the default of GOMAXPROCS would leave the machine idle behind
// a queue. Twice as many (16 on 2 cores) made the real-minute budget
// tests miss their windows on a machine loaded to 30.
func waitingParallelism() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

var (
	// pkgDir holds what the tests share: the binary, built once.
	pkgDir string

	binOnce sync.Once
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		_ = flag.Set("test.parallel", strconv.Itoa(waitingParallelism()))
	}
	dir, err := os.MkdirTemp("", "vaultdeck-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pkgDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// buildBinary compiles the module's main package once for the whole
// package (the first test that needs it pays for it; the others wait for
// it). The binary is shared and only ever run: nothing may be written next
// to it.
func buildBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		bin := filepath.Join(pkgDir, "vaultdeck")
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/vaultdeck/vaultdeck").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		binPath = bin
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// isolation is one test's private directories, made on first use.
type isolation struct {
	vars []string // NAME=value
}

var (
	isolationsMu sync.Mutex
	isolations   = map[testing.TB]*isolation{}
)

// privateVars is the environment that makes a child process the test's
// own: HOME, the XDG directories, VAULTDECK_HOME and TMPDIR under the
// test's temporary directory. One set per test (and per subtest), so that
// consecutive commands of a test share their store as a user's would.
func privateVars(t testing.TB) []string {
	t.Helper()
	isolationsMu.Lock()
	defer isolationsMu.Unlock()
	if iso, ok := isolations[t]; ok {
		return iso.vars
	}
	root := t.TempDir()
	var vars []string
	for _, v := range []struct{ name, dir string }{
		{"HOME", "home"}, {"XDG_CONFIG_HOME", "config"}, {"XDG_DATA_HOME", "data"},
		{"XDG_CACHE_HOME", "cache"}, {"XDG_STATE_HOME", "state"}, {"XDG_RUNTIME_DIR", "run"},
		{"VAULTDECK_HOME", "vaultdeck"}, {"TMPDIR", "tmp"},
	} {
		d := filepath.Join(root, v.dir)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		vars = append(vars, v.name+"="+d)
	}
	isolations[t] = &isolation{vars: vars}
	t.Cleanup(func() {
		isolationsMu.Lock()
		delete(isolations, t)
		isolationsMu.Unlock()
	})
	return vars
}

// inherited reports whether a variable of this process may reach a
// child: not the ones privateVars replaces, not vaultdeck's own (a token or
// profile of the person running the tests), not a session bus.
func inherited(name string) bool {
	switch name {
	case "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
		"XDG_RUNTIME_DIR", "TMPDIR", "DBUS_SESSION_BUS_ADDRESS":
		return false
	}
	return !strings.HasPrefix(name, "VAULTDECK_")
}

// childEnv is the environment of a process a test starts: this process's
// inherited variables minus drop, the test's private directories, then
// extra (later entries win, so a test may name its own VAULTDECK_HOME).
func childEnv(t testing.TB, drop []string, extra ...string) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if inherited(name) && !contains(drop, name) {
			env = append(env, kv)
		}
	}
	env = append(env, privateVars(t)...)
	return append(env, extra...)
}

// envCommand is childEnv as the arguments of env(1), for a command tmux
// starts: the tmux server's own environment is this process's, so what
// must not be inherited is unset there.
func envCommand(t testing.TB, drop []string, extra ...string) []string {
	t.Helper()
	args := []string{"env"}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !inherited(name) || contains(drop, name) {
			args = append(args, "-u", name)
		}
	}
	args = append(args, privateVars(t)...)
	return append(args, extra...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
