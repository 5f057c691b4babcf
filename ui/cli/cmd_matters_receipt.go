package cli

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/auditcmd"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

func (r *runner) mattersReceiptCmd() *cobra.Command {
	c := &cobra.Command{Use: "receipt ID", Short: "show one receipt (--export csv|json for filing)", Args: cobra.ArbitraryArgs}
	fs := c.Flags()
	exportAs := fs.String("export", "", "print the whole receipt as `csv|json` (for filing)")
	result := fs.String("result", "", "only items with this `RESULT` (deleted, already_absent, error, not_sent, ...)")
	code := fs.String("code", "", "only items with this error `CODE` (invalid_client_id, blocked_by_ethical_wall, ...): the console's error-code filter")
	c.RunE = r.run(func(ctx context.Context, pos []string) int {
		if len(pos) != 1 {
			return r.usage("give exactly one receipt ID")
		}
		id, err := strconv.ParseInt(pos[0], 10, 64)
		if err != nil || id <= 0 {
			return r.usage("receipt ID %q is not a positive number", pos[0])
		}
		if r.g.JSON && *exportAs == "" {
			*exportAs = "json"
		}
		if r.g.CSV && *exportAs == "" {
			*exportAs = "csv" // --csv, like every listing's
		}
		if *exportAs != "" && *exportAs != "csv" && *exportAs != "json" {
			return r.usage("--export takes csv or json, not %q", *exportAs)
		}
		st, err := r.openReceipts()
		if err != nil {
			return r.fail(err)
		}
		defer st.Close()
		rc, err := st.Receipt(id)
		if err != nil {
			return r.fail(err)
		}
		switch *exportAs {
		case "csv":
			w := csvsafe.NewWriter(r.env.Stdout)
			w.Row("line", "client_id", "matter_id", "result", "code", "detail", "request")
			err = st.ReceiptItemsWhere(id, *result, *code, func(it store.ReceiptItem) error {
				return w.Row(strconv.Itoa(it.Line), sanitize.Line(it.ClientID), sanitize.Line(it.MatterID), it.Result,
					sanitize.Line(it.Code), sanitize.Line(it.Detail), strconv.Itoa(it.Request))
			})
			return r.done(errorsJoin(err, w.Flush()))
		case "json":
			items := []map[string]any{}
			err = st.ReceiptItemsWhere(id, *result, *code, func(it store.ReceiptItem) error {
				items = append(items, map[string]any{"line": it.Line, "client_id": it.ClientID, "matter_id": it.MatterID,
					"result": it.Result, "code": it.Code, "detail": it.Detail, "request": it.Request})
				return nil
			})
			if err != nil {
				return r.fail(err)
			}
			m := receiptJSON(rc)
			m["items"] = items
			ev, note, ok := auditcmd.Evidence(ctx, r.f.Client, st, auditcmd.ReceiptAction(rc, r.f.Now()))
			m["audit_evidence"] = auditcmd.EvidenceJSON(ev, note, ok)
			return r.emitJSON(m)
		}
		w := r.env.Stdout
		fmt.Fprintf(w, "receipt   %d (%s)\n", rc.ID, rc.Action)
		if rc.RestoreOf != 0 {
			fmt.Fprintf(w, "restores  receipt %d\n", rc.RestoreOf)
		}
		fmt.Fprintf(w, "file      %s\nsha256    %s\n", sanitize.Line(rc.FileName), rc.FileSHA256)
		fmt.Fprintf(w, "profile   %s\nendpoint  %s\n", sanitize.Line(rc.Profile), sanitize.Line(rc.Endpoint))
		fmt.Fprintf(w, "started   %s\n", rc.StartedAt.UTC().Format(time.RFC3339))
		if !rc.FinishedAt.IsZero() {
			fmt.Fprintf(w, "finished  %s\n", rc.FinishedAt.UTC().Format(time.RFC3339))
		}
		fmt.Fprintf(w, "status    %s", matters.Status(rc))
		if rc.Note != "" {
			fmt.Fprintf(w, " (%s)", sanitize.Line(rc.Note))
		}
		fmt.Fprintf(w, "\npairs     %d: %s\n", rc.Pairs, matters.CountsText(rc.Counts))
		if rerun := matters.Rerun(rc); rerun != "" {
			fmt.Fprintf(w, "re-run    %s\n", sanitize.Line(rerun))
		}
		// The service's own record of the run, from the mirror (no audit request).
		ev, note, _ := auditcmd.Evidence(ctx, r.f.Client, st, auditcmd.ReceiptAction(rc, r.f.Now()))
		auditcmd.PrintEvidence(w, ev, note)
		fmt.Fprintln(w)
		// Two passes over the store: widths first, then rows, so a million
		// items stream instead of sitting in memory.
		cells := func(it store.ReceiptItem) [6]string {
			return outcomeCells(it.Line, it.ClientID, it.MatterID, it.Result, it.Code, it.Detail)
		}
		widths := newOutcomeWidths()
		if err := st.ReceiptItemsWhere(id, *result, *code, func(it store.ReceiptItem) error { widths.add(cells(it)); return nil }); err != nil {
			return r.fail(err)
		}
		t := newOutcomeTable(w, widths)
		err = st.ReceiptItemsWhere(id, *result, *code, func(it store.ReceiptItem) error { t.row(cells(it)); return nil })
		return r.done(errorsJoin(err, t.flush()))
	})
	return c
}
