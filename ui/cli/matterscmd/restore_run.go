package matterscmd

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// restorePreview lists what a restore would do without sending anything:
// the pairs the receipt proves deleted, the in-flight ones that will be
// checked against the service first, and those already restored.
func (o *Options) restorePreview(plan *matters.RestorePlan, dry bool) int {
	rec := plan.Receipt
	var outs []matters.Outcome
	for _, p := range plan.Proven {
		outs = append(outs, matters.Outcome{Line: p.Line, ClientID: p.ClientID, MatterID: p.MatterID, Result: "to_restore"})
	}
	for _, p := range plan.InFlight {
		outs = append(outs, matters.Outcome{Line: p.Line, ClientID: p.ClientID, MatterID: p.MatterID, Result: "to_check",
			Detail: "sent without a recorded answer (in flight, or outcome unknown): restored only if the service shows this run deleted it"})
	}
	outs = append(outs, plan.Done...)
	outs = append(outs, plan.Later...)
	slices.SortFunc(outs, func(a, b matters.Outcome) int { return a.Line - b.Line })
	if !dry && plan.Candidates() == 0 {
		fmt.Fprintf(o.IO.Err(), "vaultdeck %s: %s\n", o.IO.Command(), matters.NothingToRestore(plan))
		return printer.ExitOK
	}
	return o.IO.Done(o.IO.Show(printer.Result{
		JSON: func() (any, error) {
			if outs == nil {
				outs = []matters.Outcome{}
			}
			return map[string]any{"receipt": rec.ID, "file": rec.FileName, "pairs": outs}, nil
		},
		Text: func(w io.Writer) error {
			fmt.Fprintf(w, "receipt %d (%s) deleted %s", rec.ID, sanitize.Line(rec.FileName), plural.Count(len(plan.Proven), "matter"))
			if n := len(plan.InFlight); n > 0 {
				fmt.Fprintf(w, "; %d more %s sent without a recorded answer (in flight, or outcome unknown) and would be checked against the service first", n, plural.Verb(n, "was", "were"))
			}
			fmt.Fprintln(w, "; a restore sends them back by POST /api/v2/matters")
			if len(outs) > 0 {
				printOutcomes(w, outs)
			}
			return nil // as a listing's table, a write error is the printer's to say
		},
	}))
}

// sayLeftAlone is the line about the in-flight pairs a restore checked
// against the service and did not send.
func (o *Options) sayLeftAlone(rep *matters.Report) {
	codes := map[string]int{}
	for _, o := range rep.Outcomes {
		if o.Result == matters.ResultLeftAlone || o.Result == matters.ResultUnproven {
			codes[o.Code]++
		}
	}
	if len(codes) == 0 {
		return
	}
	if parts := leftAloneParts(codes); len(parts) > 0 {
		o.IO.Note("in-flight pairs left alone, as the service lists them: %s", strings.Join(parts, ", ")) // the service's codes, cleaned
	}
	if n := codes[matters.CodeUnproven]; n > 0 {
		fmt.Fprintf(o.IO.Err(), "vaultdeck %s: %s unproven: the service may show this run deleted %s, but an upsert could also create a matter; nothing was sent for %s: see `vaultdeck matters receipt ID --result unproven` and check %s in the workspace\n", o.IO.Command(), plural.Count(n, "in-flight pair"), plural.Verb(n, "it", "them"), plural.Verb(n, "it", "them"), plural.Verb(n, "it", "them"))
	}
}

func matterrunReceipts(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return "receipt " + strings.Join(parts, ", ")
}

// leftAloneParts says how many in-flight pairs the service lists in each
// state a restore leaves alone ("1 is present", "2 are present").
func leftAloneParts(codes map[string]int) []string {
	var parts []string
	for _, c := range []struct{ code, one, many string }{
		{matters.CodeNeverExisted, "never existed", "never existed"},
		{matters.CodePresent, "is present", "are present"},
		{matters.CodeDeletedBefore, "was already deleted before this run's request", "were already deleted before this run's request"},
		{matters.CodeDeletedLater, "was deleted later by another deletion on this machine (its restore brings it back)",
			"were deleted later by another deletion on this machine (its restore brings them back)"},
	} {
		if n := codes[c.code]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, plural.Verb(n, c.one, c.many)))
		}
	}
	return parts
}
