package statuscmd

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// journalFile is one unfinished file of the journal as `status --journal`
// reports it (also its --json shape).
type journalFile struct {
	Group       string    `json:"group"`
	Status      string    `json:"status"` // the processing status, or not sent / upload failed / unproven
	ProjectID   string    `json:"project_id"`
	ProjectName string    `json:"project_name,omitempty"`
	Path        string    `json:"file_path"` // the folder path that was uploaded (file_paths)
	Local       string    `json:"local_path"`
	FileID      string    `json:"file_id,omitempty"`
	UploadedAt  time.Time `json:"uploaded_at,omitzero"`
	RunID       int64     `json:"run_id"`
	Reason      string    `json:"reason,omitempty"`
	group       filestatus.Group
	needsAction bool
}

// journalStatus lists every unfinished file of every journaled run of the
// profile, across projects: the uploaded ones with their processing status
// asked of the service now (one get_files per 1000), the others as the
// journal holds them. Grouped as File status groups them, then by project
// and path. Exit 3 when any is stuck, failed, missing, unproven or not sent.
func runJournal(ctx context.Context, o *Options) int {
	p := o.IO
	st, profile, err := o.Journal()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	// Names without a request: the access snapshots', then the console's
	// cached listing's (an error only costs the names: IDs are shown).
	body, _, _, _ := st.Cache(profile, person.CacheProjects)
	u, err := filestatus.LoadUnfinished(st, profile, body)
	if err != nil {
		return p.Fail(err)
	}
	rows, ids, names := u.Rows, u.IDs, cleanNames(u.Names)
	details := map[string]api.FileDetail{}
	var polled []api.FileDetail // the answers in the service's order
	// Only files with an ID can be stuck (a file never sent is grouped by
	// the journal alone), and those are asked of the service: the resolved
	// threshold (flag, profile setting, default) comes with the client.
	stuckAfter := cmp.Or(o.Flags.StuckAfter, filestatus.DefaultStuckAfter)
	if len(ids) > 0 {
		conn, err := o.Connect()
		if err != nil {
			return p.Fail(err)
		}
		c := conn.Client
		stuckAfter = conn.Account.StuckAfter
		recs, err := c.GetFiles(p.Watch(ctx), ids)
		if err != nil {
			return p.Fail(err)
		}
		polled = make([]api.FileDetail, 0, len(recs))
		for _, it := range recs {
			details[strings.ToLower(it.Value.FileID)] = it.Value
			polled = append(polled, it.Value)
		}
		if err := st.SetFileDetails(upload.JournalDetails(polled)); err != nil {
			return p.Fail(err)
		}
	}
	list, replaced := journalReport(rows, details, names, o.Now(), stuckAfter)
	if o.Group != "" {
		kept := list[:0]
		for _, f := range list {
			if filestatus.FilterShows(o.Group, f.group) {
				kept = append(kept, f)
			}
		}
		list = kept
	}
	code := printer.ExitOK
	for _, f := range list {
		if f.needsAction {
			code = printer.ExitPartial
		}
	}
	if p.Is(printer.CSV) {
		if c := o.journalCSV(u, polled, stuckAfter); c != printer.ExitOK {
			return c
		}
		return code
	}
	var counts filestatus.Counts
	unsent := map[string]int{}
	for _, f := range list {
		counts[f.group]++
		if f.FileID == "" {
			unsent[f.Status]++
		}
	}
	cells := p.Cells()
	_, err = printer.List(ctx, p, printer.Values(list), printer.Listing[journalFile]{
		Headers: []string{"GROUP", "STATUS", "PROJECT", "PATH", "FILE ID", "UPLOADED (UTC)", "RUN"},
		Cells: func(f *journalFile) []string {
			project := f.ProjectName
			if project == "" {
				project = f.ProjectID
			}
			return []string{f.Group, f.Status, project, f.Path, f.FileID, cells.Time(f.UploadedAt), fmt.Sprint(f.RunID)}
		},
		Held: true,
		Foot: func(w io.Writer, _ api.Summary, n int) error {
			line := fmt.Sprintf("%s in the upload journal: %s", plural.Count(n, "unfinished file"), counts.Line())
			for _, w := range []string{"not sent", "upload failed", "unproven"} {
				if unsent[w] > 0 {
					line += fmt.Sprintf("; %d %s", unsent[w], w)
				}
			}
			line += " " + stuckRule(stuckAfter)
			if _, err := fmt.Fprintln(w, line); err != nil {
				return err
			}
			if unsent["not sent"] > 0 {
				p.Note("files not sent yet: run `vaultdeck upload --resume` to send them")
			}
			if unsent["unproven"] > 0 {
				p.Note("unproven files may or may not have arrived: `vaultdeck upload --resume` checks those of unfinished batches against their projects; check the projects of the others and upload them again if missing")
			}
			for _, f := range replaced {
				p.Note("%s (run %d) was replaced: a later upload of its name superseded it (deleted_at); no longer tracked, `vaultdeck uploads %d` lists its run", f.Path, f.RunID, f.RunID)
			}
			return nil
		},
	})
	if err != nil {
		return p.Fail(err)
	}
	return code
}

// journalReport groups journal rows as File status does (one
// classification, filestatus.Classify): the last known status of each row
// (filestatus.RowFacts: the service's answer in details, by lower-case file
// ID, else the journal's), or the journal's own state for a file never
// confirmed (filestatus.Unsent). Sorted by group, project, path. Files
// that became ready or were replaced (a later upload of their name
// superseded them) since the journal's last look are among them, as the
// console shows them; the replaced come back apart too, to be said.
func journalReport(rows []store.JournalFile, details map[string]api.FileDetail, names map[string]string, now time.Time, stuckAfter time.Duration) (out, replaced []journalFile) {
	out = make([]journalFile, 0, len(rows))
	for _, f := range rows {
		j := journalFile{ProjectID: f.ProjectID, ProjectName: names[strings.ToLower(f.ProjectID)], Path: f.Path, Local: f.Local,
			FileID: f.FileID, UploadedAt: f.UploadedAt, RunID: f.RunID, Reason: f.Reason}
		if j.Path == "" {
			j.Path = f.Name
		}
		if word, g, ok := filestatus.Unsent(f); ok {
			j.Status, j.group = word, g
			j.UploadedAt = time.Time{} // the request's time, not an upload's
		} else {
			d, asked := details[strings.ToLower(f.FileID)]
			facts := filestatus.RowFacts(f, d, asked)
			j.group = filestatus.Classify(facts, now, stuckAfter)
			j.Status = facts.Word()
			if j.group == filestatus.Replaced {
				replaced = append(replaced, j) // finished, and said apart too: no longer tracked
			}
		}
		j.Group = j.group.String()
		// ready or replaced since the last look: finished (listed, as the
		// console shows them, and the journal notes it for the next look)
		j.needsAction = j.group != filestatus.Processing && j.group != filestatus.Ready && j.group != filestatus.Replaced
		out = append(out, j)
	}
	slices.SortStableFunc(out, func(a, b journalFile) int {
		return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.ProjectName+a.ProjectID, b.ProjectName+b.ProjectID), cmp.Compare(a.Path, b.Path))
	})
	return out, replaced
}

// cleanNames makes project names safe to print (the table cleans its cells
// too, but --json prints the names as they are here).
func cleanNames(names map[string]string) map[string]string {
	out := make(map[string]string, len(names))
	for id, n := range names {
		out[id] = sanitize.Line(n)
	}
	return out
}

// journalCSV writes the journal's files as the console's :files without
// IDs opens them and writes them with e (ui/csvsafe/records): the same
// tracker (filestatus.AddUnfinished, then the service's answers as its
// first poll folds them), in its order (the journal's), the files its
// first poll leaves on screen (those become ready or replaced since the
// last look among them), the group filter as its 1-5 keys apply it.
func (o *Options) journalCSV(u filestatus.Unfinished, answers []api.FileDetail, stuckAfter time.Duration) int {
	p, now := o.IO, o.Now()
	tr := filestatus.NewTracker(nil, sanitize.Line)
	tr.AddUnfinished(u)
	if len(u.IDs) > 0 {
		tr.Apply(u.IDs, answers, now)
	}
	var rows [][]string
	for i := range tr.Files {
		f := &tr.Files[i]
		if filestatus.FilterShows(o.Group, f.Group(now, stuckAfter)) {
			rows = append(rows, records.JournalStatus(f, now, stuckAfter))
		}
	}
	if err := p.Show(printer.Value{Headers: records.JournalStatusHeader(), Rows: rows}); err != nil { // a Value: --filter and --sort apply
		return p.Fail(err)
	}
	return printer.ExitOK
}
