package cli

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// receiptJSON is a receipt as --json and --export json show it.
func receiptJSON(rc store.Receipt) map[string]any {
	m := map[string]any{"id": rc.ID, "action": rc.Action, "profile": rc.Profile, "endpoint": rc.Endpoint,
		"file": rc.FileName, "sha256": rc.FileSHA256, "pairs": rc.Pairs, "status": rc.Status, "note": rc.Note,
		"started_at": rc.StartedAt.UTC().Format(time.RFC3339Nano), "counts": rc.Counts}
	if !rc.FinishedAt.IsZero() {
		m["finished_at"] = rc.FinishedAt.UTC().Format(time.RFC3339Nano)
	}
	if rc.RestoreOf != 0 {
		m["restore_of"] = rc.RestoreOf
	}
	return m
}

func (r *runner) mattersReceipts(_ context.Context, args []string) int {
	fs := r.newFlagSet("matters receipts", "")
	if code, ok := r.parseNoArgs(fs, args); !ok {
		return code
	}
	st, err := r.openReceipts()
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	list, err := st.Receipts()
	if err != nil {
		return r.fail(err)
	}
	if r.g.JSON {
		out := make([]map[string]any, len(list))
		for i, rc := range list {
			out[i] = receiptJSON(rc)
		}
		return r.emitJSON(out)
	}
	t := r.table("ID", "ACTION", "STARTED", "PROFILE", "FILE", "PAIRS", "STATUS", "OUTCOMES")
	for _, rc := range list {
		action := rc.Action
		if rc.RestoreOf != 0 {
			action = fmt.Sprintf("restore of %d", rc.RestoreOf)
		}
		t.row(strconv.FormatInt(rc.ID, 10), action, rc.StartedAt.UTC().Format(timeLayout), rc.Profile, rc.FileName,
			strconv.Itoa(rc.Pairs), matters.Status(rc), matters.CountsText(rc.Counts))
	}
	return r.done(t.flush())
}

func (r *runner) mattersReceipt(ctx context.Context, args []string) int {
	fs := r.newFlagSet("matters receipt", "ID [--export csv|json] [--result R]")
	exportAs := fs.String("export", "", "print the whole receipt as `csv` or json (for filing)")
	result := fs.String("result", "", "only items with this result (deleted, already_absent, error, not_sent, ...)")
	pos, code, ok := r.parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return r.usage(fs, "give exactly one receipt ID")
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || id <= 0 {
		return r.usage(fs, "receipt ID %q is not a positive number", pos[0])
	}
	if r.g.JSON && *exportAs == "" {
		*exportAs = "json"
	}
	if r.g.CSV && *exportAs == "" {
		*exportAs = "csv" // --csv, like every listing's
	}
	if *exportAs != "" && *exportAs != "csv" && *exportAs != "json" {
		return r.usage(fs, "--export takes csv or json, not %q", *exportAs)
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
		w := widgets.NewCSV(r.env.Stdout)
		w.Row("line", "client_id", "matter_id", "result", "code", "detail", "request")
		err = st.ReceiptItems(id, *result, func(it store.ReceiptItem) error {
			return w.Row(strconv.Itoa(it.Line), sanitize.Line(it.ClientID), sanitize.Line(it.MatterID), it.Result,
				sanitize.Line(it.Code), sanitize.Line(it.Detail), strconv.Itoa(it.Request))
		})
		return r.done(errorsJoin(err, w.Flush()))
	case "json":
		items := []map[string]any{}
		err = st.ReceiptItems(id, *result, func(it store.ReceiptItem) error {
			items = append(items, map[string]any{"line": it.Line, "client_id": it.ClientID, "matter_id": it.MatterID,
				"result": it.Result, "code": it.Code, "detail": it.Detail, "request": it.Request})
			return nil
		})
		if err != nil {
			return r.fail(err)
		}
		m := receiptJSON(rc)
		m["items"] = items
		ev, note, ok := r.auditEvidence(ctx, st, receiptAction(rc, r.now()))
		m["audit_evidence"] = evidenceJSON(ev, note, ok)
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
	// The service's own record of the run, from the mirror (no audit request).
	ev, note, _ := r.auditEvidence(ctx, st, receiptAction(rc, r.now()))
	printEvidence(w, ev, note)
	fmt.Fprintln(w)
	// Two passes over the store: widths first, then rows, so a million
	// items stream instead of sitting in memory.
	cells := func(it store.ReceiptItem) [6]string {
		return outcomeCells(it.Line, it.ClientID, it.MatterID, it.Result, it.Code, it.Detail)
	}
	widths := newOutcomeWidths()
	if err := st.ReceiptItems(id, *result, func(it store.ReceiptItem) error { widths.add(cells(it)); return nil }); err != nil {
		return r.fail(err)
	}
	t := newOutcomeTable(w, widths)
	err = st.ReceiptItems(id, *result, func(it store.ReceiptItem) error { t.row(cells(it)); return nil })
	return r.done(errorsJoin(err, t.flush()))
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// openReceipts opens the store and checks it is whole first: a damaged
// file must be said, never shown as fewer receipts or fewer outcomes.
func (r *runner) openReceipts() (*store.Store, error) {
	st, err := r.openStore()
	if err != nil {
		return nil, err
	}
	if err := st.Check(); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}
