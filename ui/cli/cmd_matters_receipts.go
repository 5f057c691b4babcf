package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

func (r *runner) mattersReceiptsCmd() *cobra.Command {
	c := &cobra.Command{Use: "receipts", Short: "list the deletion and restore receipts", Args: cmdutil.NoArgs}
	c.RunE = r.run(func(_ context.Context, _ []string) int {
		st, err := r.openReceipts()
		if err != nil {
			return r.fail(err)
		}
		defer st.Close()
		list, err := st.Receipts()
		if err != nil {
			return r.fail(err)
		}
		if r.jsonOut() {
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
			t.row(strconv.FormatInt(rc.ID, 10), action, r.at(rc.StartedAt), rc.Profile, rc.FileName,
				strconv.Itoa(rc.Pairs), matters.Status(rc), matters.CountsText(rc.Counts))
		}
		return r.done(t.flush())
	})
	return c
}
