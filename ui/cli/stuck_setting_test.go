package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestStatusHonoursTheProfileStuckAfter: `vaultdeck config set stuck-after
// 1m` is the threshold of `status --journal` and `status --watch` when the
// flag is not typed (flag > profile setting > default, as the console
// resolves it); a typed --stuck-after still wins. The file has been
// processing for 2 minutes of the simulator's (and the command's) clock.
func TestStatusHonoursTheProfileStuckAfter(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow}})
	s := e.Sim
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Stuck"})
	ids, err := s.AddFiles(pid, []sim.FileSpec{{Name: "slow.pdf", Status: "processing"}})
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"VAULTDECK_HOME": t.TempDir(), "VAULTDECK_TOKEN": s.Token("admin")}
	st, getenv := homeStore(t, vars, store.Profile{Name: "p", BaseURL: e.URL})
	run1, _ := st.CreateRun(store.UploadRun{Profile: "p", ProjectID: pid, Mode: "skip"})
	b, _ := st.RecordBatch(run1, []store.JournalFile{{Local: "/x/slow.pdf", Path: "slow.pdf", Name: "slow.pdf", Size: 1}}, store.Lease{Owner: "me", Until: time.Now().Add(time.Hour)})
	if err := st.CompleteBatch(b.ID, "me", []store.FileOutcome{{ID: b.Files[0].ID, State: store.FileUploaded, FileID: ids[0], UploadedAt: s.Now().Add(-2 * time.Minute)}}, ""); err != nil {
		t.Fatal(err)
	}
	st.Close()
	vd := func(ctx context.Context, clock *simClock, args ...string) run {
		var out, errb bytes.Buffer
		env := Std(strings.NewReader(""), &out, &errb, getenv)
		env.Clock = clock
		code := Main(ctx, append([]string{"--profile", "p"}, args...), env)
		return run{code, out.String(), errb.String()}
	}
	once := func(args ...string) run { return vd(context.Background(), &simClock{s: s}, args...) }
	if r := once("config", "set", "stuck-after", "1m"); r.code != ExitOK {
		t.Fatalf("config set: %d %q", r.code, r.stderr)
	}
	// watch runs until its clock has slept once: the first summary is enough.
	watch := func(args ...string) run {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		return vd(ctx, &simClock{s: s, max: 1, cancel: cancel}, append([]string{"status", "--watch", "--json", ids[0]}, args...)...)
	}
	for _, c := range []struct {
		name  string
		r     run
		stuck bool
	}{
		{"--journal, the profile's 1m", once("status", "--journal"), true},
		{"--journal --stuck-after 1h", once("status", "--journal", "--stuck-after", "1h"), false},
		{"--watch, the profile's 1m", watch(), true},
		{"--watch --stuck-after 1h", watch("--stuck-after", "1h"), false},
	} {
		journal := strings.Contains(c.name, "journal")
		var got bool
		if journal {
			got = strings.Contains(c.r.stdout, "stuck 1 ")
		} else {
			got = strings.Contains(c.r.stdout, `"stuck":1`)
		}
		if got != c.stuck {
			t.Errorf("%s: stuck counted %v, want %v (exit %d):\n%s%s", c.name, got, c.stuck, c.r.code, c.r.stdout, c.r.stderr)
		}
	}
	// The summary says the threshold it counted against, so "stuck 0" with
	// a threshold the person did not expect explains itself.
	for _, c := range []struct {
		r    run
		want string
	}{
		{once("status", "--journal"), "stuck 1 · failed 0 · missing 0 (stuck: processing over 1m)"},
		{once("status", "--journal", "--stuck-after", "1h30m"), "stuck 0 · failed 0 · missing 0 (stuck: processing over 1h30m)"},
		{watch(), `"stuck_after":"1m"`},
		{watch("--stuck-after", "2h"), `"stuck_after":"2h"`},
	} {
		if !strings.Contains(c.r.stdout, c.want) {
			t.Errorf("no %q in:\n%s", c.want, c.r.stdout)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if r := vd(ctx, &simClock{s: s, max: 1, cancel: cancel}, "status", "--watch", ids[0]); !strings.Contains(r.stdout, "(stuck: processing over 1m)") {
		t.Errorf("no threshold in the watch's summary:\n%s", r.stdout)
	}
}
