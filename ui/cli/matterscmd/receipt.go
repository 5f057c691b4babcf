package matterscmd

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/evidence"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// ReceiptOptions are what `matters receipt` was asked.
type ReceiptOptions struct {
	*Options
	Args   []string // the receipt's ID
	Export string   // csv, json or "" (the format flags': --json, --jq and --template export JSON, --csv the CSV)
	Result string   // only items with this result
	Code   string   // only items with this error code
}

func newCmdReceipt(f *factory.Factory, opts *Options) *cobra.Command {
	o := &ReceiptOptions{Options: opts}
	c := &cobra.Command{Use: "receipt ID", Short: "show one receipt (--export csv|json for filing)", Args: cobra.ArbitraryArgs}
	fs := c.Flags()
	fs.StringVar(&o.Export, "export", "", "print the whole receipt as `csv|json` (for filing)")
	fs.StringVar(&o.Result, "result", "", "only items with this `RESULT` (deleted, already_absent, error, not_sent, ...)")
	fs.StringVar(&o.Code, "code", "", "only items with this error `CODE` (invalid_client_id, blocked_by_ethical_wall, ...): the console's error-code filter")
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int {
		o.Args = args
		return RunReceipt(ctx, o)
	})
	return c
}

// RunReceipt shows one receipt with every outcome it records, or exports
// it whole for filing: its JSON (--json, --jq, --template or --export
// json), its CSV (--csv or --export csv) or its text.
func RunReceipt(ctx context.Context, o *ReceiptOptions) int {
	if len(o.Args) != 1 {
		return o.IO.Usage("give exactly one receipt ID")
	}
	id, err := strconv.ParseInt(o.Args[0], 10, 64)
	if err != nil || id <= 0 {
		return o.IO.Usage("receipt ID %q is not a positive number", o.Args[0])
	}
	export := printer.Table // the format flags choose
	switch o.Export {
	case "csv":
		export = printer.CSV
	case "json":
		export = printer.JSON
	case "":
	default:
		return o.IO.Usage("--export takes csv or json, not %q", o.Export)
	}
	st, err := o.openReceipts()
	if err != nil {
		return o.IO.Fail(err)
	}
	defer st.Close()
	rc, err := st.Receipt(id)
	if err != nil {
		return o.IO.Fail(err)
	}
	return o.IO.Done(o.IO.Show(printer.Result{
		Export: export,
		JSON: func() (any, error) {
			items := []map[string]any{}
			err := st.ReceiptItemsWhere(id, o.Result, o.Code, func(it store.ReceiptItem) error {
				items = append(items, map[string]any{"line": it.Line, "client_id": it.ClientID, "matter_id": it.MatterID,
					"result": it.Result, "code": it.Code, "detail": it.Detail, "request": it.Request})
				return nil
			})
			if err != nil {
				return nil, err
			}
			m := receiptJSON(rc)
			m["items"] = items
			ev, note, ok := evidence.Find(ctx, o.Client, st, evidence.ReceiptAction(rc, o.Now()))
			m["audit_evidence"] = evidence.JSON(ev, note, ok)
			return m, nil
		},
		Table: func(row func([]string) error) error {
			_ = row([]string{"line", "client_id", "matter_id", "result", "code", "detail", "request"}) // a write error is the CSV's, said at its end
			return st.ReceiptItemsWhere(id, o.Result, o.Code, func(it store.ReceiptItem) error {
				return row([]string{strconv.Itoa(it.Line), sanitize.Line(it.ClientID), sanitize.Line(it.MatterID), it.Result,
					sanitize.Line(it.Code), sanitize.Line(it.Detail), strconv.Itoa(it.Request)})
			})
		},
		Text: func(w io.Writer) error { return o.receiptText(ctx, w, st, rc) },
	}))
}

// receiptText is the receipt for people: what ran, its status, the
// service's own record of it, and every outcome in a table.
func (o *ReceiptOptions) receiptText(ctx context.Context, w io.Writer, st *store.Store, rc store.Receipt) error {
	fmt.Fprintf(w, "receipt   %d (%s)\n", rc.ID, rc.Action)
	if rc.RestoreOf != 0 {
		fmt.Fprintf(w, "restores  receipt %d\n", rc.RestoreOf)
	}
	fmt.Fprintf(w, "file      %s\nsha256    %s\n", sanitize.Line(rc.FileName), rc.FileSHA256)
	fmt.Fprintf(w, "profile   %s\nendpoint  %s\n", sanitize.Line(rc.Profile), sanitize.Line(rc.Endpoint))
	fmt.Fprintf(w, "run by    %s\n", sanitize.Line(writejob.Local(rc.ActorOSUser, rc.ActorKey)))
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
	ev, note, _ := evidence.Find(ctx, o.Client, st, evidence.ReceiptAction(rc, o.Now()))
	evidence.Print(w, ev, note)
	fmt.Fprintln(w)
	// Two passes over the store: widths first, then rows, so a million
	// items stream instead of sitting in memory.
	return printer.AlignedOnScreen(w, func(row func([]string)) error {
		row(outcomeHeader)
		return st.ReceiptItemsWhere(rc.ID, o.Result, o.Code, func(it store.ReceiptItem) error {
			row(outcomeCells(it.Line, it.ClientID, it.MatterID, it.Result, it.Code, it.Detail))
			return nil
		})
	})
}
