package uploadcmd

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// NewCmdReport is `uploads report RUN`.
func NewCmdReport(f *factory.Factory) *cobra.Command {
	o := options(f)
	c := &cobra.Command{Use: "report RUN", Short: "an incident report of a run: what was uploaded and removed when, who could reach the project meanwhile, the audit entries of the window",
		Args: cobra.ExactArgs(1)}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int { return RunReport(ctx, o, args[0]) })
	return c
}

// RunReport prints the incident report of run arg; exit 3 when part of it
// is not known (the users now, the mirror short of the window).
func RunReport(ctx context.Context, o *Options, arg string) int {
	p := o.IO
	runID, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || runID <= 0 {
		return p.Usage("RUN is a run number from `vaultdeck uploads`, not %q", arg)
	}
	st, profile, err := o.Journal()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	if err := st.CheckJournal(); err != nil {
		return p.Fail(err)
	}
	run, err := findRun(st, profile, runID)
	if err != nil {
		return p.Fail(err)
	}
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	removed, err := removedFiles(st, runID)
	if err != nil {
		return p.Fail(err)
	}
	log := ""
	if l, _, err := audit.LogOf(ctx, c); err == nil {
		log = l
	}
	inc, err := upload.BuildIncident(ctx, c, st, run, removed, log, time.Now())
	if err != nil {
		return p.Fail(err)
	}
	err = p.Show(printer.Result{
		JSON: func() (any, error) { return incidentJSON(inc), nil },
		Text: func(w io.Writer) error { incidentText(w, inc); return nil },
		Table: func(row func([]string) error) error {
			// one CSV of every fact, a section a row
			if err := row([]string{"section", "when", "who_or_name", "level_or_type", "id", "source_or_detail"}); err != nil {
				return err
			}
			for _, f := range inc.Files {
				if err := row([]string{"uploaded", stamp(f.UploadedAt), f.Path, strconv.FormatInt(f.Size, 10), f.FileID, f.Local}); err != nil {
					return err
				}
				if f.Unknown != "" {
					if err := row([]string{"removal_unknown", "", f.Path, "", f.FileID, f.Unknown}); err != nil {
						return err
					}
				}
				if !f.RemovedAt.IsZero() {
					if err := row([]string{"removed", stamp(f.RemovedAt), f.Path, "", f.FileID, f.Removed}); err != nil {
						return err
					}
				}
			}
			for _, r := range inc.Reachers {
				if err := row([]string{"could_reach", "", r.Email, r.Level, "", r.Source}); err != nil {
					return err
				}
			}
			for _, e := range inc.Entries {
				if err := row([]string{"audit", stamp(e.Time), e.User, e.Type, e.ID, e.IP}); err != nil {
					return err
				}
			}
			for _, s := range inc.Cannot {
				if err := row([]string{"cannot_tell", "", "", "", "", s}); err != nil {
					return err
				}
			}
			return nil
		},
	})
	if err != nil {
		return p.Fail(err)
	}
	if inc.NowErr != "" || (log != "" && !inc.Covered) || log == "" || inc.Unknown > 0 {
		return printer.ExitPartial
	}
	return printer.ExitOK
}

// removedFiles are the run's files its undos (or another delete job)
// deleted or found gone, with when, and those whose deletion was sent and
// its answer not recorded (upload.ReadUndone, as `uploads RUN` says them).
func removedFiles(st *store.Store, run int64) (map[string]upload.IncidentFile, error) {
	files, err := st.RunFiles(run)
	if err != nil {
		return nil, err
	}
	u, err := upload.ReadUndone(st, run, files)
	if err != nil {
		return nil, err
	}
	out := map[string]upload.IncidentFile{}
	for _, f := range files {
		word, detail, m := upload.RunResult(f, u)
		switch word {
		case "deleted":
			out[f.FileID] = upload.IncidentFile{RemovedAt: m.At, Removed: "deleted by " + m.By()}
		case "gone":
			at := m.At
			if at.IsZero() { // found gone by the plan: when the undo was recorded
				at = jobTime(st, m.Job)
			}
			out[f.FileID] = upload.IncidentFile{RemovedAt: at, Removed: detail}
		case "unknown":
			out[f.FileID] = upload.IncidentFile{Unknown: detail}
		}
	}
	return out, nil
}

// jobTime is when a write job was recorded (zero when it cannot be read).
func jobTime(st *store.Store, id int64) time.Time {
	j, err := st.WriteJob(id)
	if err != nil {
		return time.Time{}
	}
	return j.CreatedAt
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func incidentText(w io.Writer, inc *upload.Incident) {
	r := inc.Run
	fmt.Fprintf(w, "run       %d, mode %s, project %s, %s\n", r.ID, r.Mode, r.ProjectID, plural.Count(len(inc.Files), "file"))
	fmt.Fprintf(w, "window    %s to %s", stamp(inc.From), stamp(inc.To))
	if inc.StillThere > 0 {
		fmt.Fprintf(w, " (now: %s still there)", plural.Count(inc.StillThere, "file"))
	}
	if inc.Unknown > 0 {
		fmt.Fprintf(w, " (%s whose removal is unknown: an undo stopped)", plural.Count(inc.Unknown, "file"))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "\nFILES")
	for _, f := range inc.Files {
		gone := "still there"
		if !f.RemovedAt.IsZero() {
			gone = "removed " + stamp(f.RemovedAt) + " (" + f.Removed + ")"
		}
		if f.Unknown != "" {
			gone = "removal unknown (" + f.Unknown + ")"
		}
		fmt.Fprintf(w, "  %s  %s  %s  uploaded %s, %s\n", f.FileID, sanitize.Line(f.Path), plural.Count(int(f.Size), "byte"), stamp(f.UploadedAt), sanitize.Line(gone))
	}
	fmt.Fprintln(w, "\nWHO COULD REACH THE PROJECT")
	if inc.NowErr != "" {
		fmt.Fprintf(w, "  now: unknown (%s)\n", sanitize.Line(inc.NowErr))
	}
	for _, x := range inc.Reachers {
		fmt.Fprintf(w, "  %-40s %-7s %s\n", sanitize.Line(x.Email), sanitize.Line(x.Level), x.Source)
	}
	fmt.Fprintf(w, "\nAUDIT ENTRIES OF THE WINDOW (the project or its files, from the local mirror): %d\n", len(inc.Entries))
	for _, e := range inc.Entries {
		fmt.Fprintf(w, "  %s  %s  %s  %s\n", stamp(e.Time), sanitize.Line(e.Type), sanitize.Line(e.User), e.ID)
	}
	fmt.Fprintln(w, "\nWHAT THIS CANNOT TELL")
	for _, s := range inc.Cannot {
		fmt.Fprintf(w, "  - %s\n", s)
	}
}

func incidentJSON(inc *upload.Incident) map[string]any {
	files := make([]map[string]any, len(inc.Files))
	for i, f := range inc.Files {
		files[i] = map[string]any{"file_id": f.FileID, "name": f.Name, "path": f.Path, "local_path": f.Local, "size": f.Size,
			"uploaded_at": stamp(f.UploadedAt), "removed_at": stamp(f.RemovedAt), "removed": f.Removed, "removal_unknown": f.Unknown}
	}
	who := make([]map[string]any, len(inc.Reachers))
	for i, x := range inc.Reachers {
		who[i] = map[string]any{"email": x.Email, "name": x.Name, "access_level": x.Level, "source": x.Source}
	}
	entries := make([]map[string]any, len(inc.Entries))
	for i, e := range inc.Entries {
		entries[i] = map[string]any{"id": e.ID, "time": stamp(e.Time), "type": e.Type, "user": e.User, "ip": e.IP}
	}
	snaps := make([]int64, len(inc.Snapshots))
	for i, s := range inc.Snapshots {
		snaps[i] = s.ID
	}
	return map[string]any{"run": inc.Run.ID, "project_id": inc.Run.ProjectID, "from": stamp(inc.From), "to": stamp(inc.To),
		"files": files, "could_reach": who, "users_now_error": inc.NowErr, "snapshots": snaps, "audit_entries": entries,
		"mirror_covers_window": inc.Covered, "cannot_tell": inc.Cannot}
}
