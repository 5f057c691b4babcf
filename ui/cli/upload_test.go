package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/uploadcmd"
)

func newUploadEnv(t *testing.T) (*sim.Server, string, func(args ...string) run) {
	t.Helper()
	return newUploadEnvAt(t, filepath.Join(t.TempDir(), store.FileName))
}

// newUploadEnvAt is newUploadEnv with the journal's database at dbPath.
func newUploadEnvAt(t *testing.T, dbPath string) (*sim.Server, string, func(args ...string) run) {
	t.Helper()
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s := e.Sim
	pid, err := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	return s, pid, func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
			Limits: api.Limits{Vault: -1},
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(dbPath)
				return st, "default", err
			}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
}

func TestUploadCommand(t *testing.T) {
	s, pid, vd := newUploadEnv(t)
	dir := t.TempDir()
	for _, f := range []string{"a.pdf", "sub/b.docx", ".hidden.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte("content of "+f), 0o644)
	}
	// A path that does not exist is refused by name; the rest continue and
	// the exit status says some files did not make it.
	r := vd("upload", pid, dir, filepath.Join(dir, "missing.pdf"), "--json", "--mode", "keep")
	var rep uploadcmd.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != ExitPartial {
		t.Fatalf("upload: %d %v %q %q", r.code, err, r.stdout, r.stderr)
	}
	if len(rep.Uploaded) != 2 || rep.Uploaded[1].Path != "sub/b.docx" || len(rep.Refused) != 1 ||
		!strings.HasSuffix(rep.Refused[0].Local, "missing.pdf") || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], ".hidden.txt") {
		t.Errorf("report %+v", rep)
	}
	f, ok := s.File(rep.Uploaded[1].FileID)
	if !ok || f.Name != "b.docx" || f.Path != "sub/b.docx" || f.ProjectID != pid {
		t.Errorf("sim file %+v", f)
	}
	if r.stderr != "" {
		t.Errorf("stderr under --json, not a terminal: %q", r.stderr)
	}

	r = vd("upload", pid, filepath.Join(dir, "a.pdf"))
	if r.code != ExitOK || !strings.Contains(r.stdout, "0 uploaded, 1 skipped") {
		t.Errorf("skip by default: %d %q %q", r.code, r.stdout, r.stderr)
	}

	r = vd("uploads", "--json")
	var runs []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) != 2 {
		t.Fatalf("uploads: %v %q", err, r.stdout)
	}
	if runs[1]["mode"] != "keep" || runs[1]["uploaded"] != float64(2) || runs[1]["refused"] != float64(1) || runs[1]["state"] != "finished" {
		t.Errorf("run %v", runs[1])
	}
	if r = vd("upload", pid, dir, "--mode", "merge"); r.code != ExitUsage {
		t.Errorf("bad mode: %d", r.code)
	}
	if r = vd("upload", pid); r.code != ExitUsage {
		t.Errorf("no paths: %d", r.code)
	}
	if r = vd("upload", "--resume"); r.code != ExitOK {
		t.Errorf("resume with nothing to do: %d %q", r.code, r.stderr)
	}
}

// ttyBuffer stands in for a terminal on stderr.
type ttyBuffer struct{ bytes.Buffer }

func (*ttyBuffer) IsTerminal() bool { return true }

// TestUploadSaysToAPersonWhatItsJSONCarries: on a terminal's stderr an
// upload draws its progress line and names the files its plan skipped,
// unless the report is JSON (--json, --jq, --template), which carries the
// notes and is read by a program; --jsonl alone prints the table, so a
// person is told.
func TestUploadSaysToAPersonWhatItsJSONCarries(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	pid, err := e.Sim.AddProject(sim.ProjectSpec{Name: "Inbox"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.pdf"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden.txt"), []byte("h"), 0o644)
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	vars := map[string]string{"VAULTDECK_TOKEN": e.Sim.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	for _, c := range []struct {
		args []string
		told bool
	}{
		{nil, true}, {[]string{"--jsonl"}, true}, {[]string{"--csv"}, true},
		{[]string{"--json"}, false}, {[]string{"--jq", ".uploaded"}, false}, {[]string{"--jsonl", "--jq", ".uploaded"}, false},
		{[]string{"--template", "{{len .uploaded}}"}, false},
	} {
		errb := &ttyBuffer{}
		env := Env{Stdout: &bytes.Buffer{}, Stderr: errb, Getenv: func(k string) string { return vars[k] },
			Limits: api.Limits{Vault: -1},
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(dbPath)
				return st, "default", err
			}}
		code := Main(context.Background(), append([]string{"upload", pid, dir, "--mode", "keep"}, c.args...), env)
		stderr := errb.String()
		line := strings.Contains(stderr, "\r\x1b[Kbatch 1/1  files")
		skipped := strings.Contains(stderr, "vaultdeck upload: skipped hidden file")
		if code != ExitOK || line != c.told || skipped != c.told {
			t.Errorf("%v: exit %d, progress line %v, skipped file named %v, want %v: %q", c.args, code, line, skipped, c.told, stderr)
		}
	}
}

// TestUploadNotesAreCleanedForTheTerminal: the plan's notes name local
// files (a hidden file skipped), and a file's name can hold an escape
// sequence: the notes reach stderr cleaned, as the report's do. They were
// written raw before the upload started.
func TestUploadNotesAreCleanedForTheTerminal(t *testing.T) {
	_, pid, vd := newUploadEnv(t)
	dir := t.TempDir()
	for _, name := range []string{"a.txt", ".h\x1b]0;owned\x07\x1b[2J.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := vd("upload", pid, dir)
	if r.code != ExitOK || !strings.Contains(r.stderr, "skipped hidden file") {
		t.Fatalf("upload: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	if strings.ContainsAny(r.stderr, "\x1b\x07") {
		t.Errorf("a note wrote the file name's escape sequence to stderr: %q", r.stderr)
	}
}
