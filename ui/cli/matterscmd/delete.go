package matterscmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// DeleteOptions are what `matters delete` was asked.
type DeleteOptions struct {
	*Options
	Args   []string // the file, or - for stdin
	Dry    bool
	Format string // csv, tsv or "" (sniffed)
	Yes    bool
}

func newCmdDelete(f *factory.Factory, opts *Options) *cobra.Command {
	o := &DeleteOptions{Options: opts}
	c := &cobra.Command{Use: "delete FILE|-", Short: "batch-delete client matters listed in a CSV/TSV file (or stdin), with a receipt", Args: cobra.ArbitraryArgs}
	fs := c.Flags()
	fs.BoolVar(&o.Dry, "dry-run", false, "show the preview and send nothing")
	fs.StringVar(&o.Format, "format", "", "the file's separator, `csv|tsv` (default: sniffed from the first line)")
	fs.BoolVar(&o.Yes, "yes", false, "do not ask to type the number of pairs (needed when stdin is not a terminal)")
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int {
		o.Args = args
		return RunDelete(ctx, o)
	})
	return c
}

// RunDelete previews the file's run, asks to confirm it, sends it and
// reports every pair's outcome with the receipt.
func RunDelete(ctx context.Context, o *DeleteOptions) int {
	pos := o.Args
	{
		if len(pos) != 1 {
			return o.IO.Usage("give exactly one file, or - for stdin")
		}
		fmtOpt, err := matters.ParseFormat(o.Format)
		if err != nil {
			return o.IO.Usage("%v", err)
		}
		if !o.Dry {
			if code, ok := o.RefuseReadOnly(); !ok {
				return code
			}
		}
		name := pos[0]
		in, err := matters.Open(name, o.IO.In())
		if err != nil {
			return o.IO.Fail(err)
		}
		defer in.Close()
		file, err := matters.Read(in, fmtOpt)
		if err != nil {
			return o.IO.Fail(fmt.Errorf("%s: %w; nothing was sent", displayName(name), err))
		}
		plan := matters.NewPlan(file.Pairs, perMinute(o.Limits))
		// The service's own list says what each pair is before anything
		// is sent: one request, within the client-matters budget.
		known, lookErr := o.look(ctx, plan)
		if o.Dry {
			return o.printPreview(name, file, plan, known, lookErr)
		}
		if len(plan.Send) == 0 {
			o.sayPreview(name, file, plan, known, lookErr)
			o.IO.Note("no pair can be sent; nothing was sent")
			return printer.ExitPartial
		}
		if !o.Yes {
			o.sayPreview(name, file, plan, known, lookErr)
		} else if lookErr != nil {
			o.IO.Note("%v", sanitize.Line(lookErr.Error()))
		}
		if ok, code := o.confirmCount(len(plan.Send), "delete", o.Yes, name == "-"); !ok {
			return code
		}
		c, err := o.Client()
		if err != nil {
			return o.IO.Fail(err)
		}
		st, err := o.Store()
		if err != nil {
			return o.IO.Fail(err)
		}
		defer st.Close()
		id, rep, err := matters.Delete(ctx, o.deps(c, st), matters.Source{Name: displayName(name), SHA256: file.SHA256}, plan, o.mattersWatch())
		return o.report(id, rep, err, "matters restore --receipt")
	}
}
