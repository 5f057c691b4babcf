package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// simClock sleeps by moving the simulator's clock, so a watch runs its
// schedule at once; it records the pauses and ends the watch after max.
type simClock struct {
	s      *sim.Server
	sleeps []time.Duration
	max    int
	cancel func()
}

func (c *simClock) Now() time.Time { return c.s.Now() }
func (c *simClock) Sleep(ctx context.Context, d time.Duration) error {
	c.sleeps = append(c.sleeps, d)
	c.s.Advance(d)
	if len(c.sleeps) >= c.max {
		c.cancel()
		return context.Canceled
	}
	return ctx.Err()
}

func TestStatusWatchNDJSON(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow}})
	s := e.Sim
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Watch"})
	ids, err := s.AddFiles(pid, []sim.FileSpec{
		{Name: "soon.pdf", Status: "processing", ReadyInSeconds: 60},
		{Name: "old.pdf", Status: "processing"},
		{Name: "bad.pdf", Status: "recoverable_failure"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ghost := "00000000-0000-4000-8000-000000000000"
	// The journal knows old.pdf was uploaded two hours ago.
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	run, _ := st.CreateRun(store.UploadRun{Profile: "default", ProjectID: pid, Mode: "skip"})
	b, _ := st.RecordBatch(run, []store.JournalFile{{Local: "/x/old.pdf", Path: "old.pdf", Name: "old.pdf", Size: 1}}, store.Lease{Owner: "me", Until: time.Now().Add(time.Hour)})
	if err := st.CompleteBatch(b.ID, "me", []store.FileOutcome{{ID: b.Files[0].ID, State: store.FileUploaded, FileID: ids[1], UploadedAt: s.Now().Add(-2 * time.Hour)}}, ""); err != nil {
		t.Fatal(err)
	}
	st.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock := &simClock{s: s, max: 4, cancel: cancel}
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Clock: clock, Limits: api.Limits{Vault: -1},
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}[k]
		},
		Journal: func(string) (*store.Store, string, error) {
			st, err := store.Open(st.Path())
			return st, "default", err
		}}
	Main(ctx, []string{"status", "--watch", "--json", strings.Join(append(ids, ghost), ",")}, env)

	type event struct {
		Type, FileName, Status, Group, AgeFrom, FileID string
		AgeSeconds                                     float64
		Ready, Processing, Stuck, Missing              *int
		FailedRecoverable                              *int `json:"failed_recoverable"`
	}
	var files []event
	var summaries []event
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var e struct {
			event
			FileName   string  `json:"file_name"`
			AgeFrom    string  `json:"age_from"`
			AgeSeconds float64 `json:"age_seconds"`
			FileID     string  `json:"file_id"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not NDJSON: %q: %v", line, err)
		}
		e.event.FileName, e.event.AgeFrom, e.event.AgeSeconds, e.event.FileID = e.FileName, e.AgeFrom, e.AgeSeconds, e.FileID
		if e.Type == "file" {
			files = append(files, e.event)
		} else {
			summaries = append(summaries, e.event)
		}
	}
	byName := map[string][]event{}
	for _, f := range files {
		byName[f.FileName] = append(byName[f.FileName], f)
	}
	if o := byName["old.pdf"]; len(o) != 1 || o[0].Group != "stuck" || o[0].AgeFrom != "uploaded" || o[0].AgeSeconds != 7200 || o[0].Status != "processing" {
		t.Errorf("old processing file not stuck at once: %+v", o)
	}
	if s := byName["soon.pdf"]; len(s) != 2 || s[0].Group != "processing" || s[0].AgeFrom != "first_seen" || s[1].Group != "ready" || s[1].Status != "ready_to_query" {
		t.Errorf("soon.pdf: %+v", s)
	}
	if b := byName["bad.pdf"]; len(b) != 1 || b[0].Group != "failed (recoverable)" {
		t.Errorf("bad.pdf: %+v", b)
	}
	last := summaries[len(summaries)-1]
	if len(summaries) != 4 || *last.Ready != 1 || *last.Stuck != 1 || *last.Missing != 1 || *last.FailedRecoverable != 1 || *last.Processing != 0 {
		t.Errorf("%d summaries, last %+v", len(summaries), last)
	}
	// Ten seconds after a change, doubling while nothing changes.
	if got := clock.sleeps; len(got) != 4 || got[0] != 10*time.Second || got[1] != 20*time.Second || got[2] != 40*time.Second || got[3] != 10*time.Second {
		t.Errorf("pauses %v", got)
	}
}

func TestFilesAndStatusOneCasing(t *testing.T) {
	s, vd := newSimEnv(t)
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Casing"})
	ids, _ := s.AddFiles(pid, []sim.FileSpec{{Name: "x.pdf", Status: "UNRECOVERABLE_FAILURE"}})
	if r := vd("", "files", pid); !strings.Contains(r.stdout, "unrecoverable_failure") || strings.Contains(r.stdout, "UNRECOVERABLE") {
		t.Errorf("files: %q", r.stdout)
	}
	if r := vd("", "status", ids[0]); !strings.Contains(r.stdout, "unrecoverable_failure") {
		t.Errorf("status: %q", r.stdout)
	}
}

// TestStatusWatchJSONLinesIsNDJSON: --jsonl asks for JSON Lines, and a watch
// is lines already: it printed the human text instead, as if no format had
// been given.
func TestStatusWatchJSONLinesIsNDJSON(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow}})
	s := e.Sim
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Watch"})
	ids, err := s.AddFiles(pid, []sim.FileSpec{{Name: "ready.pdf", Status: "ready_to_query"}})
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Limits: api.Limits{Vault: -1}, Clock: &simClock{s: s, max: 4, cancel: func() {}},
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}[k]
		}}
	if code := Main(context.Background(), []string{"status", "--watch", "--jsonl", ids[0]}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, line := range lines {
		if !json.Valid([]byte(line)) {
			t.Fatalf("not a JSON line: %q", line)
		}
	}
	if len(lines) != 2 {
		t.Errorf("%d lines, want the file and the summary: %q", len(lines), out.String())
	}
}

// TestStatusWatchAStatusNotKnown: a status the interface never named
// ("completed") ends the watch as unknown, shown as received, and the
// watch exits 3 saying so, instead of counting it processing.
func TestStatusWatchAStatusNotKnown(t *testing.T) {
	srv := faultserver.Start(faultserver.UnknownStatus)
	defer srv.Close()
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Limits: api.Limits{Vault: -1},
			Getenv: func(k string) string {
				return map[string]string{"VAULTDECK_TOKEN": "tok", "VAULTDECK_BASE_URL": srv.URL, "VAULTDECK_HOME": t.TempDir()}[k]
			}}
		return run{Main(context.Background(), args, env), out.String(), errb.String()}
	}
	r := vd("status", "--watch", faultserver.FileID)
	if r.code != 3 || !strings.Contains(r.stdout, "completed  unknown") || !strings.Contains(r.stdout, "unknown 1") || strings.Contains(r.stdout, "processing 1") {
		t.Errorf("exit %d\nstdout %q\nstderr %q: want the file shown as completed, counted unknown, exit 3", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "completed") {
		t.Errorf("stderr %q does not say which status is not known", r.stderr)
	}
	r = vd("status", "--watch", "--json", faultserver.FileID)
	if r.code != 3 || !strings.Contains(r.stdout, `"status":"completed","group":"unknown"`) || !strings.Contains(r.stdout, `"unknown":1`) {
		t.Errorf("--json: exit %d, %q", r.code, r.stdout)
	}
}
