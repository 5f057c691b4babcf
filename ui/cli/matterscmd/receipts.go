package matterscmd

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

func newCmdReceipts(f *factory.Factory, o *Options) *cobra.Command {
	c := &cobra.Command{Use: "receipts", Short: "list the deletion and restore receipts", Args: cmdutil.NoArgs}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int { return RunReceipts(ctx, o) })
	return c
}

// RunReceipts lists the receipts of this machine's runs.
func RunReceipts(_ context.Context, o *Options) int {
	st, err := o.openReceipts()
	if err != nil {
		return o.IO.Fail(err)
	}
	defer st.Close()
	list, err := st.Receipts()
	if err != nil {
		return o.IO.Fail(err)
	}
	out := make([]map[string]any, len(list))
	rows := make([][]string, len(list))
	cells := o.IO.Cells()
	for i, rc := range list {
		out[i] = receiptJSON(rc)
		action := rc.Action
		if rc.RestoreOf != 0 {
			action = fmt.Sprintf("restore of %d", rc.RestoreOf)
		}
		rows[i] = []string{strconv.FormatInt(rc.ID, 10), action, cells.Time(rc.StartedAt), rc.Profile, rc.FileName,
			strconv.Itoa(rc.Pairs), matters.Status(rc), matters.CountsText(rc.Counts)}
	}
	return o.IO.Done(o.IO.Show(printer.Value{JSON: out,
		Headers: []string{"ID", "ACTION", "STARTED", "PROFILE", "FILE", "PAIRS", "STATUS", "OUTCOMES"}, Rows: rows}))
}
