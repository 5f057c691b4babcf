package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/matters"
)

func (r *runner) mattersDeleteCmd() *cobra.Command {
	c := &cobra.Command{Use: "delete FILE|-", Short: "batch-delete client matters listed in a CSV/TSV file (or stdin), with a receipt", Args: cobra.ArbitraryArgs}
	fs := c.Flags()
	dry := fs.Bool("dry-run", false, "show the preview and send nothing")
	format := fs.String("format", "", "the file's separator, `csv|tsv` (default: sniffed from the first line)")
	yes := fs.Bool("yes", false, "do not ask to type the number of pairs (needed when stdin is not a terminal)")
	c.RunE = r.run(func(ctx context.Context, pos []string) int {
		if len(pos) != 1 {
			return r.usage("give exactly one file, or - for stdin")
		}
		fmtOpt, err := matters.ParseFormat(*format)
		if err != nil {
			return r.usage("%v", err)
		}
		if !*dry {
			if code, ok := r.refuseReadOnly(); !ok {
				return code
			}
		}
		name, in := pos[0], io.Reader(r.env.Stdin)
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				return r.fail(err)
			}
			defer f.Close()
			in = f
		}
		file, err := matters.Read(in, fmtOpt)
		if err != nil {
			return r.fail(fmt.Errorf("%s: %w; nothing was sent", displayName(name), err))
		}
		plan := matters.NewPlan(file.Pairs, perMinute(r.env.Limits))
		if *dry {
			return r.printPreview(r.env.Stdout, name, file, plan, true)
		}
		if len(plan.Send) == 0 {
			r.printPreview(r.env.Stderr, name, file, plan, false)
			fmt.Fprintf(r.env.Stderr, "vaultdeck %s: no pair can be sent; nothing was sent\n", r.cmd)
			return ExitPartial
		}
		if !*yes {
			r.printPreview(r.env.Stderr, name, file, plan, false)
		}
		if ok, code := r.confirmCount(len(plan.Send), "delete", *yes, name == "-"); !ok {
			return code
		}
		c, err := r.client()
		if err != nil {
			return r.fail(err)
		}
		st, err := r.openStore()
		if err != nil {
			return r.fail(err)
		}
		defer st.Close()
		id, rep, err := matters.Delete(ctx, r.deps(c, st), matters.Source{Name: displayName(name), SHA256: file.SHA256}, plan, r.mattersWatch())
		return r.report(id, rep, err, "matters restore --receipt")
	})
	return c
}
