// Package evidence is what every write's receipt shows of the service's
// own record of it: the audit entries the local mirror holds for a matter
// run's receipt or an upload's runs, found without an audit request, and
// written as a receipt's lines or its JSON. The write commands (matters,
// uploads) share it; the audit commands do not need it.
package evidence

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Find finds the service's own audit entries for something vaultdeck
// did, in the local mirror only (no audit request): whoami names the
// workspace's log and the token's user. ok is false when that could not be
// asked; the reason is in note.
func Find(ctx context.Context, client func() (*api.Client, error), st *store.Store, a audit.Action) (ev audit.Evidence, note string, ok bool) {
	c, err := client()
	if err != nil {
		return ev, "unknown: " + err.Error(), false
	}
	log, who, err := audit.LogOf(ctx, c)
	if err != nil {
		return ev, "unknown: " + err.Error(), false
	}
	a.User = who.Email
	ev, err = audit.FindEvidence(ctx, st, log, a)
	if err != nil {
		return ev, "unknown: " + err.Error(), false
	}
	return ev, ev.String(), true
}

// Print writes the evidence lines of a human-readable outcome.
func Print(w io.Writer, ev audit.Evidence, note string) {
	fmt.Fprintf(w, "audit     %s\n", sanitize.Line(note))
	for _, e := range ev.Entries {
		fmt.Fprintf(w, "          %s  %s  %s  %s\n", e.Time.UTC().Format(time.RFC3339), sanitize.Line(e.Type), sanitize.Line(e.User), sanitize.Line(e.ID))
	}
}

// JSON is the evidence for --json.
func JSON(ev audit.Evidence, note string, ok bool) map[string]any {
	ids := []string{}
	for _, e := range ev.Entries {
		ids = append(ids, e.ID)
	}
	m := map[string]any{"summary": note, "entry_ids": ids, "covered": ev.Covered}
	if !ok {
		m["covered"] = nil
	}
	return m
}

// ReceiptAction is what a matter receipt's evidence is: the service's
// client-matter entries of the run's time.
func ReceiptAction(rc store.Receipt, now time.Time) audit.Action {
	to := rc.FinishedAt
	if to.IsZero() {
		to = now
	}
	return audit.Action{Type: audit.TypeMatters, From: rc.StartedAt, To: to}
}

// Run is one upload run's evidence: a table cell and its JSON.
type Run struct {
	Cell string
	JSON map[string]any
	sync bool // not yet in the mirror
}

// Runs are the runs of summaries.
func Runs(rs []store.RunSummary) []store.UploadRun {
	out := make([]store.UploadRun, len(rs))
	for i, r := range rs {
		out[i] = r.UploadRun
	}
	return out
}

// OfRuns finds each run's api:vault_upload_files entries (the
// token's user, the project, the time its batches went out) in the
// mirror. One whoami for all; without it every run says unknown.
func OfRuns(ctx context.Context, client func() (*api.Client, error), st *store.Store, runs []store.UploadRun) []Run {
	out := make([]Run, len(runs))
	if len(runs) == 0 {
		return out
	}
	unknown := func(why string) []Run {
		for i := range out {
			out[i] = Run{Cell: "unknown", JSON: map[string]any{"summary": "unknown: " + why, "entry_ids": []string{}, "covered": nil}}
		}
		return out
	}
	c, err := client()
	if err != nil {
		return unknown(err.Error())
	}
	log, who, err := audit.LogOf(ctx, c)
	if err != nil {
		return unknown(err.Error())
	}
	for i, run := range runs {
		first, last, sent, err := st.RunSpan(run.ID)
		switch {
		case err != nil:
			out[i] = Run{Cell: "unknown", JSON: map[string]any{"summary": "unknown: " + err.Error(), "entry_ids": []string{}, "covered": nil}}
			continue
		case !sent:
			out[i] = Run{Cell: "-", JSON: map[string]any{"summary": "nothing was sent", "entry_ids": []string{}, "covered": nil}}
			continue
		}
		a := audit.Action{Type: audit.TypeUpload, User: who.Email, From: first, To: last, ProjectID: run.ProjectID}
		ev, err := audit.FindEvidence(ctx, st, log, a)
		if err != nil {
			out[i] = Run{Cell: "unknown", JSON: map[string]any{"summary": "unknown: " + err.Error(), "entry_ids": []string{}, "covered": nil}}
			continue
		}
		cell := plural.Count(len(ev.Entries), "entry")
		if !ev.Covered {
			cell = "not yet in the mirror"
			if len(ev.Entries) > 0 {
				cell = fmt.Sprintf("%d so far", len(ev.Entries))
			}
		}
		out[i] = Run{Cell: cell, JSON: JSON(ev, ev.String(), true), sync: !ev.Covered}
	}
	return out
}

// Footnote tells what to run when some runs are not yet in the mirror.
func Footnote(rs []Run) string {
	for _, x := range rs {
		if x.sync {
			return "AUDIT: the service's own api:vault_upload_files entries, from the local mirror; not yet in the mirror: run `vaultdeck audit sync`"
		}
	}
	return ""
}
