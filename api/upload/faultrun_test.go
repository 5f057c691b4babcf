package upload

// One schedule of the fault walk, start to end, and its checker.

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// service is a new empty project for a schedule, on the walk's one
// simulator (starting a simulator per schedule was most of the walk's time).
func (w *faultWorld) service() *service {
	if w.svc == nil {
		e := simtest.Start(w.t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
		w.svc = &service{sim: e.Sim, url: e.URL, http: e.HTTP}
	}
	pid, err := w.svc.sim.AddProject(sim.ProjectSpec{Name: fmt.Sprintf("Uploads %d", w.seq)})
	if err != nil {
		w.t.Fatal(err)
	}
	svc := *w.svc
	svc.project = pid
	return &svc
}

// arm fails point of target's Injector with f.
func arm(target string, point int, f storefault.Fault) func(j, l *storefault.Injector) {
	return func(j, l *storefault.Injector) {
		if target == "journal" {
			j.FailAt(point, f)
		} else {
			l.FailAt(point, f)
		}
	}
}

// count runs s's phases with no fault but the cut and says how many write
// points each Store of the phase of interest made.
func (w *faultWorld) count(s schedule) map[string]int {
	svc := w.service()
	db, done := w.database()
	defer done()
	reader, err := store.Open(db)
	if err != nil {
		w.t.Fatal(err)
	}
	defer reader.Close()
	var first func(j, l *storefault.Injector)
	if s.phase == "resume" {
		first = arm("journal", s.cut, storefault.Crash)
	}
	p, err := w.start(db, svc, reader, true, first)
	if err != nil {
		w.t.Fatal(err)
	}
	p.runner.Upload(context.Background(), svc.project, w.plan, s.mode)
	p.close()
	if s.phase == "resume" {
		if p, err = w.start(db, svc, reader, true, nil); err != nil {
			w.t.Fatal(err)
		}
		p.lostListing = s.lostListing
		p.runner.Resume(context.Background())
		p.close()
	}
	return map[string]int{"journal": p.journal.Points(), "ledger": p.ledger.Points()}
}

// database is a new database file for a schedule: a copy of one migrated
// once, since creating the schema is most of what opening costs.
func (w *faultWorld) database() (string, func()) {
	if w.template == nil {
		path := filepath.Join(w.root, "template", store.FileName)
		st, err := store.Open(path)
		if err != nil {
			w.t.Fatal(err)
		}
		st.Close() // the last close folds the log into the file
		if w.template, err = os.ReadFile(path); err != nil {
			w.t.Fatal(err)
		}
	}
	dir, err := os.MkdirTemp(w.root, "db-")
	if err != nil {
		w.t.Fatal(err)
	}
	path := filepath.Join(dir, store.FileName)
	if err := os.WriteFile(path, w.template, 0o600); err != nil {
		w.t.Fatal(err)
	}
	return path, func() { os.RemoveAll(dir) }
}

// walk runs one schedule: the upload, (a resume with the fault,) a clean
// resume by a new process, and returns what the checker found wrong.
func (w *faultWorld) walk(s schedule) (problems []string) {
	svc := w.service()
	db, done := w.database()
	defer done()
	reader, err := store.Open(db)
	if err != nil {
		return []string{err.Error()}
	}
	defer reader.Close()
	ctx := context.Background()
	var runErr error
	phase := func(name string, fault storefault.Fault, armed func(j, l *storefault.Injector), run func(p *process) (Outcome, error)) bool {
		p, err := w.start(db, svc, reader, s.target == "ledger", armed)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: the store could not be opened: %v", name, err))
			return false
		}
		defer p.close()
		p.lostListing = name == "resume" && s.lostListing
		if s.target == "journal" {
			p.journalFault = fault
		}
		out, err := run(p)
		if name == s.phase {
			inj := p.journal
			if s.target == "ledger" {
				inj = p.ledger
			}
			if _, fired := inj.Fired(); fired {
				w.struck++
			}
		}
		if name == "run" {
			runErr, w.planFailed = err, err != nil
		}
		for _, g := range p.guard.problems {
			problems = append(problems, name+": "+g)
		}
		if p.crashed() {
			return true // its outcome died with it
		}
		problems = append(problems, w.checkClaim(name, p, out, err, svc, reader)...)
		return true
	}
	upload := func(p *process) (Outcome, error) { return p.runner.Upload(ctx, svc.project, w.plan, s.mode) }
	resume := func(p *process) (Outcome, error) { return p.runner.Resume(ctx) }
	if s.phase == "run" {
		if !phase("run", s.fault, arm(s.target, s.point, s.fault), upload) {
			return problems
		}
	} else {
		if !phase("run", storefault.Crash, arm("journal", s.cut, storefault.Crash), upload) {
			return problems
		}
		if !phase("resume", s.fault, arm(s.target, s.point, s.fault), resume) {
			return problems
		}
	}
	var final Outcome
	var finalErr error
	phase("final resume", storefault.None, nil, func(p *process) (Outcome, error) {
		final, finalErr = p.runner.Resume(ctx)
		return final, finalErr
	})
	problems = append(problems, w.checkFinal(svc, reader, final, finalErr, runErr)...)
	// a run in the journal names who ran it: the actor goes in with the
	// run's one insert, whatever write the fault struck (issue 45)
	if me, err := user.Current(); err == nil {
		runs, _ := reader.UploadRuns("default") // the profile every process of the walk runs as (faultcheck_test.go)
		for _, r := range runs {
			if r.ActorOSUser != me.Username {
				problems = append(problems, fmt.Sprintf("run %d names local user %q, want %q", r.ID, r.ActorOSUser, me.Username))
			}
		}
	}
	return problems
}

func allDone(out Outcome, err error) bool {
	return err == nil && !out.Partial() && len(out.Errors) == 0
}

// checkClaim: an outcome that says all is done is true of the service and
// the journal; a journal write that failed for good is in the outcome.
func (w *faultWorld) checkClaim(name string, p *process, out Outcome, err error, svc *service, reader *store.Store) []string {
	var problems []string
	// All done after a journal error is right only when nothing was held
	// back (a renewal failed during the last request), and then it is said.
	if told := p.told.first(); told != "" && allDone(out, err) && !said(out.Notes, told) {
		problems = append(problems, fmt.Sprintf("%s: a journal write returned an error to the job (%s) and the outcome says all is done without a word of it", name, told))
	}
	if allDone(out, err) {
		for _, bad := range w.state(svc, reader) {
			problems = append(problems, fmt.Sprintf("%s: the outcome says all is done, yet %s", name, bad))
		}
	}
	return problems
}

// checkFinal: every file exactly once on the service or named as not done.
// A file in no record is right only when the run said its plan could not
// be recorded and sent nothing.
func (w *faultWorld) checkFinal(svc *service, reader *store.Store, out Outcome, err, runErr error) []string {
	var problems []string
	copies, journal := w.observe(svc, reader)
	for _, f := range w.plan.Files {
		if n := len(copies[f.Name]); n > 1 {
			problems = append(problems, fmt.Sprintf("%s is on the service %d times", f.Name, n))
		}
		j, ok := journal[f.Path]
		switch {
		case !ok && (runErr == nil || len(copies[f.Name]) > 0):
			problems = append(problems, fmt.Sprintf("%s is in no journal record and %d times on the service (the run's error: %v)", f.Path, len(copies[f.Name]), runErr))
		case !ok:
		case j.State == store.FileUploaded || j.State == store.FileSkipped:
			if len(copies[f.Name]) != 1 {
				problems = append(problems, fmt.Sprintf("%s is %s in the journal but %d times on the service", f.Path, j.State, len(copies[f.Name])))
			}
		case allDone(out, err):
			problems = append(problems, fmt.Sprintf("the last resume says all is done, yet %s is %s in the journal", f.Path, j.State))
		}
	}
	return problems
}

// state lists what is not done: a file not uploaded in the journal, or not
// exactly once on the service.
func (w *faultWorld) state(svc *service, reader *store.Store) []string {
	var bad []string
	copies, journal := w.observe(svc, reader)
	for _, f := range w.plan.Files {
		j, ok := journal[f.Path]
		if !ok && w.planFailed && len(copies[f.Name]) == 0 {
			continue // the run said its plan could not be recorded; nothing was sent
		}
		if (j.State != store.FileUploaded && j.State != store.FileSkipped) || len(copies[f.Name]) != 1 {
			bad = append(bad, fmt.Sprintf("%s is %q in the journal and %d times on the service", f.Path, j.State, len(copies[f.Name])))
		}
	}
	return bad
}

// observe reads the project's live files (a planned name and its " (N)"
// copies, by planned name) and the journal's rows by path.
func (w *faultWorld) observe(svc *service, reader *store.Store) (map[string][]string, map[string]store.JournalFile) {
	client, err := api.New(api.Config{BaseURL: svc.url, HTTPClient: svc.http, Token: api.StaticToken(svc.sim.Token("admin")), Limits: api.Limits{Vault: -1}})
	if err != nil {
		w.t.Fatal(err)
	}
	copies := map[string][]string{}
	files, _, err := client.ProjectFiles(svc.project, api.FileQuery{}).Collect(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	for _, f := range files {
		copies[planned(f.Name)] = append(copies[planned(f.Name)], f.ID)
	}
	journal := map[string]store.JournalFile{}
	runs, err := reader.UploadRuns("default")
	if err != nil {
		w.t.Fatal(err)
	}
	for _, run := range runs {
		files, err := reader.RunFiles(run.ID)
		if err != nil {
			w.t.Fatal(err)
		}
		for _, f := range files {
			journal[f.Path] = f
		}
	}
	return copies, journal
}

// planned is the name a " (N)" copy was made of: "doc-1 (1).pdf" -> "doc-1.pdf".
func planned(name string) string {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	if i := strings.LastIndex(stem, " ("); i > 0 && strings.HasSuffix(stem, ")") {
		return stem[:i] + ext
	}
	return name
}

// said reports whether a line of lines holds the error of told ("Op: err").
func said(lines []string, told string) bool {
	_, msg, _ := strings.Cut(told, ": ")
	for _, l := range lines {
		if strings.Contains(l, msg) {
			return true
		}
	}
	return false
}
