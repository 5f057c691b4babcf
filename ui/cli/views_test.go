package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/topics"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// viewsEnv is a simulator, a private configuration directory and a
// journal database: what `vaultdeck view` reads.
func viewsEnv(t *testing.T) (path string, vd func(args ...string) run, r *tree) {
	t.Helper()
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow}})
	dir := t.TempDir()
	vars := map[string]string{"VAULTDECK_TOKEN": e.Sim.Token("admin"), "VAULTDECK_BASE_URL": e.URL,
		"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_DATA_HOME": filepath.Join(dir, "data")}
	dbPath := filepath.Join(dir, store.FileName)
	env := Env{Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1},
		Clock: &simtest.Clock{Sim: e.Sim},
		Journal: func(string) (*store.Store, string, error) {
			st, err := store.Open(dbPath)
			return st, "default", err
		},
		OpenStore: func() (*store.Store, error) { return store.Open(dbPath) }}
	return filepath.Join(dir, "config", "vaultdeck", "views"), func(args ...string) run {
		var out, errb bytes.Buffer
		env := env
		env.Stdout, env.Stderr = &out, &errb
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}, newTree(env)
}

// TestViewRunsTheSavedQuery: a view saved as the console saves it runs
// headless as its command does, in any output format, and survives a new
// process (it is read from the file each time).
func TestViewRunsTheSavedQuery(t *testing.T) {
	path, vd, r := viewsEnv(t)
	if got := vd("view"); got.code != 0 || !strings.Contains(got.stdout, "no saved views yet in "+path) {
		t.Fatalf("view with none: %+v", got)
	}
	q := page.Query{Command: []string{"recycle-bin"}, Flags: []page.Flag{{Name: "purging-within", Value: "7d"}}}
	if err := account.SaveView(path, "purging-week", q.Quoted(), checkView(r.orig)); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"--csv", "--json", ""} {
		want := vd(strings.Fields("recycle-bin --purging-within 7d " + format)...)
		got := vd(strings.Fields("view purging-week " + format)...)
		if want.code != 0 || got.code != want.code || got.stdout != want.stdout || len(want.stdout) < 100 {
			t.Errorf("%s: view gave %d %q…, the command %d %q…", format, got.code, head(got.stdout), want.code, head(want.stdout))
		}
	}
	if got := vd("view"); !strings.Contains(got.stdout, "purging-week  recycle-bin --purging-within 7d") {
		t.Errorf("view lists %q", got.stdout)
	}
	if got := vd("view", "nope"); got.code != ExitUsage || !strings.Contains(got.stderr, `there is no saved view "nope"`) || !strings.Contains(got.stderr, "saved: purging-week") {
		t.Errorf("unknown view: %+v", got)
	}
	if got := vd("__complete", "view", ""); !strings.Contains(got.stdout, "purging-week\n") {
		t.Errorf("completion: %q", got.stdout)
	}
}

// TestViewsHandEditedMistake: each mistake a hand edit can make is one
// line on stderr naming the file and the line, and nothing runs.
func TestViewsHandEditedMistake(t *testing.T) {
	path, vd, _ := viewsEnv(t)
	os.MkdirAll(filepath.Dir(path), 0o700)
	for _, c := range []struct{ line, want string }{
		{"week = recycle-bin --purging-within 7x", `recycle-bin: invalid value "7x" for --purging-within`},
		{"week = recycle-bin --purge-within 7d", "recycle-bin: unknown flag --purge-within"},
		{"week = recycle-bn", `"recycle-bn" is not a listing a view can save`},
		{"week = upload 123e4567-e89b-12d3-a456-426614174000 .", `"upload 123e4567-e89b-12d3-a456-426614174000" is not a listing`},
		{"week = recycle-bin --csv", "--csv is given when the view runs"},
		{"week = status --journal --group stucked", `invalid value "stucked" for --group`},
		{"week = users", "users: give exactly one project ID"},
		{"week recycle-bin", "expected NAME = COMMAND"},
	} {
		os.WriteFile(path, []byte("# mine\n\n"+c.line+"\n"), 0o600)
		for _, args := range [][]string{{"view", "week", "--csv"}, {"view"}} {
			got := vd(args...)
			lines := strings.Split(strings.TrimSpace(got.stderr), "\n")
			if got.code == 0 || len(lines) != 1 || !strings.Contains(lines[0], path+":3: ") || !strings.Contains(lines[0], c.want) || got.stdout != "" {
				t.Errorf("%q, %v: exit %d, stdout %q, stderr %q; want one line naming %s:3 and %q", c.line, args, got.code, got.stdout, got.stderr, path, c.want)
			}
		}
	}
}

// TestSavedLineReadsBackTheSameWords: what the console saves (quoted by
// shellescape) is read back (by go-shellquote) as the same words, however
// hostile the values.
func TestSavedLineReadsBackTheSameWords(t *testing.T) {
	path, _, r := viewsEnv(t)
	for _, v := range []string{"O'Brien & Sons", "$(id)", "#x", "a\tb", "\"q\"", "back\\slash", "é"} {
		q := page.Query{Command: []string{"recycle-bin"}, Flags: []page.Flag{{Name: "deleted-by", Value: v}}}
		if err := account.SaveView(path, "v", q.Quoted(), checkView(r.orig)); err != nil {
			t.Fatal(err)
		}
		views, err := account.ReadViews(path, checkView(r.orig))
		if err != nil || len(views) != 1 || strings.Join(views[0].Args, "\x00") != strings.Join(q.Args(), "\x00") {
			t.Errorf("%q: read back %v (%v)", v, views, err)
		}
	}
}

// TestSavedViewsTopicRuns: each example view of `vaultdeck help
// saved-views` is read as a line of the file, and runs against the
// simulator.
func TestSavedViewsTopicRuns(t *testing.T) {
	topic, _ := topics.Find("saved-views")
	m := regexp.MustCompile("(?s)<!-- saved-views-example -->\n```\n(.*?)```").FindSubmatch([]byte(topic.Markdown()))
	if m == nil {
		t.Fatal("the saved-views topic has no example block")
	}
	path, vd, _ := viewsEnv(t)
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, m[1], 0o600)
	list := vd("view")
	if list.code != 0 {
		t.Fatalf("the topic's views do not read: %s", list.stderr)
	}
	if got := vd("audit", "sync"); got.code != 0 { // the stats example reads the local mirror
		t.Fatalf("audit sync: %s", got.stderr)
	}
	names := 0
	for _, line := range strings.Split(string(m[1]), "\n") {
		name, _, ok := strings.Cut(line, " = ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		names++
		// exit 3 is an answer too: a probe-like listing found something to act on
		if got := vd("view", name); got.code != 0 && got.code != ExitPartial {
			t.Errorf("%s: exit %d: %s", name, got.code, got.stderr)
		}
	}
	if names < 3 {
		t.Errorf("the topic shows %d example views", names)
	}
}

func head(s string) string { return s[:min(len(s), 120)] }

// TestAViewKeepsItsConnection (issue 42): a view keeps the profile and the
// endpoint it was saved with (a console on a staging service, the demo's
// simulator), and runs there; an output format is still given when it
// runs. Before, --base-url and --profile were refused in a view, so the
// console's V dropped them and the view asked the default service.
func TestAViewKeepsItsConnection(t *testing.T) {
	path, vd, r := viewsEnv(t)
	q := page.Query{Command: []string{"recycle-bin"}, Globals: []page.Flag{{Name: "base-url", Value: "http://127.0.0.1:9"}}}
	if err := account.SaveView(path, "elsewhere", q.Quoted(), checkView(r.orig)); err != nil {
		t.Fatal(err)
	}
	views, err := account.ReadViews(path, checkView(r.orig))
	if err != nil || len(views) != 1 {
		t.Fatal(views, err)
	}
	vq, err := viewQuery(r.orig, views[0].Args)
	if err != nil || len(vq.Globals) != 1 || vq.Globals[0] != (account.ViewFlag{Name: "base-url", Value: "http://127.0.0.1:9"}) || len(vq.Flags) != 0 {
		t.Fatalf("read back %+v (%v)", vq, err)
	}
	// the saved endpoint, not the environment's (the simulator's), is asked
	if got := vd("view", "elsewhere", "--csv"); got.code == 0 || !strings.Contains(got.stderr, "127.0.0.1:9") {
		t.Errorf("the view ran against another endpoint than its own: exit %d, stderr %q", got.code, got.stderr)
	}
}
