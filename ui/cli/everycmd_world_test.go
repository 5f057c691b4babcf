package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// The world every command is walked in: simulators (a seeded one, the
// leaver's, a paged one), homes, local files, and the list of invocations
// (everycmd_list*_test.go), which covers every command of the tree in
// every output format, its usage errors, the account commands on a memory
// keyring, the jobs (upload, matters, audit sync and follow, access crawl)
// and servers that answer 401 or 500. It is the list the every-command
// comparison of the command line's restructuring ran (1,323 invocations);
// TestStreamFaults runs it with its streams failing.

// walkEnv is one kind of environment an invocation runs in.
type walkEnv struct {
	name string
	vars map[string]string
	home string
	sim  *sim.Server
	acct bool // Std's own Env (Account, Login, Logout, Profiles, the store's ledger) on the memory keyring
	// paced: the client's own default limits (Limits{}), so its budget
	// waits sleep on the clock; else none (-1)
	paced bool
	// nostore: Env.OpenStore and Env.Journal left nil (a build without them)
	nostore bool
}

// walkInput is an invocation's stdin: its text, and whether it says it is
// a terminal (the matters prompts).
type walkInput struct {
	text string
	tty  bool
}

// tty is stdin on a terminal that holds text.
func tty(text string) walkInput { return walkInput{text: text, tty: true} }

// invocation is one command line of the list, in its environment.
type invocation struct {
	n         int
	env       walkEnv
	stdin     walkInput
	maxSleeps int // the clock ends the command after this many sleeps (a watch, a follow)
	args      []string
}

// walkClock is the simulator's clock: Sleep moves it (so a watch, a follow
// or a retry runs its schedule at once) and ends the command after max
// sleeps.
type walkClock struct {
	s      *sim.Server
	n, max int
	cancel func()
}

func (c *walkClock) Now() time.Time { return c.s.Now() }
func (c *walkClock) Sleep(ctx context.Context, d time.Duration) error {
	c.n++
	if d > 0 {
		c.s.Advance(d)
	}
	if c.max > 0 && c.n >= c.max {
		c.cancel()
		return context.Canceled
	}
	return ctx.Err()
}

// walkWorld is the world and what the list's sections share.
type walkWorld struct {
	t    *testing.T
	root string
	// each is told every invocation, in order
	each func(inv invocation)
	n    int
	// requests counts every request any simulator received
	requests atomic.Int64

	s, lv                      *sim.Server
	st                         *simtest.Env
	url401, url500             string
	tokEnv, leaverEnv, noTok   walkEnv
	env401, env500             walkEnv
	acctEnv, acctTokEnv        walkEnv
	pid, emptyPid, gp, ghost   string
	fids                       []string
	adminEmail, otherEmail     string
	up, same, upPid            string
	mf, bad, none, tsv, matter string // the matter files, and mf's text
	shapers                    [][]string
}

// newWalkWorld builds the world under root (a path of a fixed length, so
// that tables padded to a path's width line up the same in every run).
func newWalkWorld(t *testing.T, root string, each func(inv invocation)) *walkWorld {
	w := &walkWorld{t: t, root: root, each: each}
	os.RemoveAll(root)
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	w.st = w.startSim(sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow})
	w.s = w.st.Sim
	lv := w.startSim(sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow, Leaver: true})
	w.lv = lv.Sim
	home := filepath.Join(root, "home")   // the token env's VAULTDECK_HOME
	home2 := filepath.Join(root, "acct")  // the profiles env's
	home3 := filepath.Join(root, "lhome") // the leaver sim's
	for _, d := range []string{home, home2, home3} {
		os.MkdirAll(d, 0o700)
	}
	fail := func(code int, body string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			w.requests.Add(1)
			rw.Header().Set("Content-Type", "application/json")
			rw.WriteHeader(code)
			io.WriteString(rw, body)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	w.url401 = fail(http.StatusUnauthorized, `{"detail":"Invalid or expired token"}`)
	w.url500 = fail(http.StatusInternalServerError, `{"error":"internal","message":"boom"}`)
	keyring.MockInit() // Std's keyring is go-keyring's: its in-memory mock, for this process
	s := w.s
	w.tokEnv = walkEnv{name: "sim", vars: map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": w.st.URL, "VAULTDECK_HOME": home}, home: home, sim: s}
	w.leaverEnv = walkEnv{name: "leaver", vars: map[string]string{"VAULTDECK_TOKEN": lv.Sim.Token("admin"), "VAULTDECK_BASE_URL": lv.URL, "VAULTDECK_HOME": home3}, home: home3, sim: lv.Sim}
	w.noTok = walkEnv{name: "notoken", vars: map[string]string{"VAULTDECK_BASE_URL": w.st.URL, "VAULTDECK_HOME": home}, home: home, sim: s}
	w.env401 = walkEnv{name: "401", vars: map[string]string{"VAULTDECK_TOKEN": "tok_abcdefghijklmnop0123", "VAULTDECK_BASE_URL": w.url401, "VAULTDECK_HOME": home}, home: home, sim: s}
	w.env500 = walkEnv{name: "500", vars: map[string]string{"VAULTDECK_TOKEN": "tok_abcdefghijklmnop0123", "VAULTDECK_BASE_URL": w.url500, "VAULTDECK_HOME": home}, home: home, sim: s}
	w.acctEnv = walkEnv{name: "acct", vars: map[string]string{"VAULTDECK_HOME": home2}, home: home2, sim: s, acct: true}
	w.acctTokEnv = walkEnv{name: "acct+token", vars: map[string]string{"VAULTDECK_HOME": home2, "VAULTDECK_TOKEN": s.Token("admin")}, home: home2, sim: s, acct: true}
	w.seed()
	return w
}

// startSim starts a simulator whose requests the world counts.
func (w *walkWorld) startSim(o sim.Options) *simtest.Env {
	return simtest.Start(w.t, simtest.Options{Sim: o, Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			w.requests.Add(1)
			next.ServeHTTP(rw, r)
		})
	}})
}

// seed adds the workspace's data the list names.
func (w *walkWorld) seed() {
	t, s := w.t, w.s
	projects := s.Projects()
	sort.Slice(projects, func(i, j int) bool { return projects[i].ID < projects[j].ID })
	for _, p := range projects {
		if !p.Deleted && p.FileCount > 0 && w.pid == "" {
			w.pid = p.ID
		}
	}
	var err error
	if w.gp, err = s.AddProject(sim.ProjectSpec{Name: "Golden Files"}); err != nil {
		t.Fatal(err)
	}
	w.emptyPid, _ = s.AddProject(sim.ProjectSpec{Name: "Empty Golden"})
	w.fids, err = s.AddFiles(w.gp, []sim.FileSpec{
		{Name: "ready.pdf"},
		{Name: "soon.pdf", Status: "processing", ReadyInSeconds: 60},
		{Name: "stuck.pdf", Status: "processing"},
		{Name: "bad.pdf", Status: "recoverable_failure"},
		{Name: "worse.pdf", Status: "unrecoverable_failure"},
		{Name: "odd \x1b[31mname\x1b[0m.docx"},
	})
	if err != nil {
		t.Fatal(err)
	}
	w.ghost = "00000000-0000-4000-8000-000000000000"
	for _, tk := range s.Tokens() {
		if tk.Name == "admin" {
			w.adminEmail = tk.UserEmail
		} else if w.otherEmail == "" && tk.UserEmail != "" {
			w.otherEmail = tk.UserEmail
		}
	}
	w.shapers = [][]string{{"--jsonl"}, {"--jsonl", "--jq", "."}, {"--jsonl", "--jq", ".id"}, {"--jsonl", "--template", "{{.}}"},
		{"--json", "--jq", ".id"}, {"--json", "--template", "{{.}}"}, {"--jq", ".id"}, {"--template", "{{.}}"}}
}

// everyCommand tells each every invocation of the list, in order.
func (w *walkWorld) everyCommand() {
	w.meta()
	w.listings()
	w.uploadsAndAudit()
	w.viewAccessPerson()
	w.matters()
	w.mattersShapers()
	w.accounts()
	w.pagedAndFailing()
}

func (w *walkWorld) runIn(k walkEnv, stdin any, maxSleeps int, args ...string) {
	w.n++
	in := walkInput{}
	switch v := stdin.(type) {
	case string:
		in.text = v
	case walkInput:
		in = v
	}
	w.each(invocation{n: w.n, env: k, stdin: in, maxSleeps: maxSleeps, args: append([]string(nil), args...)})
}

func (w *walkWorld) vd(args ...string)              { w.runIn(w.tokEnv, "", 200, args...) }
func (w *walkWorld) vdIn(stdin any, args ...string) { w.runIn(w.tokEnv, stdin, 200, args...) }
func (w *walkWorld) ad(stdin any, args ...string)   { w.runIn(w.acctEnv, stdin, 200, args...) }
func (w *walkWorld) lvd(args ...string)             { w.runIn(w.leaverEnv, "", 200, args...) }

// formats runs a listing (or object) command in every output format and
// the refused combinations, and with the global flags before it.
func (w *walkWorld) formats(str, obj, tmpl string, args ...string) {
	for _, f := range [][]string{nil, {"--json"}, {"--jsonl"}, {"--csv"}, {"--jq", str}, {"--jq", obj},
		{"--template", tmpl}, {"--jsonl", "--jq", str}, {"--jsonl", "--template", tmpl}, {"--json", "--jq", obj},
		// refused or odd combinations
		{"--json", "--csv"}, {"--jsonl", "--csv"}, {"--csv", "--jq", str}, {"--csv", "--template", tmpl},
		{"--jq", str, "--template", tmpl}, {"--jq", ".["}, {"--template", "{{.nope"}} {
		w.vd(append(append([]string{}, args...), f...)...)
	}
	w.vd(append([]string{"--json"}, args...)...)
	w.vd(append([]string{"--jq", str}, args...)...)
}

// mainOf runs inv through Main on the streams given (and the world's
// simulators), and reports its exit status and whether it ran out of time.
func (w *walkWorld) mainOf(inv invocation, stdout, stderr io.Writer, limit time.Duration) (code int, timedOut bool) {
	k := inv.env
	var in io.Reader = strings.NewReader(inv.stdin.text)
	if inv.stdin.tty {
		in = ttyReader{strings.NewReader(inv.stdin.text)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	clock := &walkClock{s: k.sim, max: inv.maxSleeps, cancel: cancel}
	getenv := func(key string) string { return k.vars[key] }
	dbPath := filepath.Join(k.home, store.FileName)
	env := Env{Stdin: in, Stdout: stdout, Stderr: stderr, Getenv: getenv, Clock: clock,
		Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}}
	if k.paced {
		env.Limits = api.Limits{}
	}
	if k.acct {
		// the process's own Env (Std), on the memory keyring; the console,
		// demo, simulator and server are never started from here
		std := Std(in, stdout, stderr, getenv)
		std.Clock, std.Limits = env.Clock, env.Limits
		std.Console, std.Demo, std.Sim, std.Serve = nil, nil, nil, nil
		env = std
	} else if !k.nostore {
		env.OpenStore = func() (*store.Store, error) { return store.Open(dbPath) }
		env.Journal = func(string) (*store.Store, string, error) { st, err := store.Open(dbPath); return st, "default", err }
	}
	code = Main(ctx, inv.args, env)
	return code, ctx.Err() == context.DeadlineExceeded
}
