package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

func (r *tree) versionCmd() *cobra.Command {
	return &cobra.Command{Use: "version", Short: "print the version, commit and date of this build, its Go and platform, and the store schema it writes (--json too)", Args: cmdutil.NoArgs,
		RunE: r.run(func(context.Context, []string) int { return showVersion(r.p) })}
}

// showVersion prints the build's version (also `vaultdeck --version`):
// one line of JSON with --json or --jsonl, else the one line of text.
func showVersion(p *printer.Printer) int {
	v := buildVersion()
	b, _ := json.Marshal(v)
	return p.Done(p.Show(printer.Value{Raw: b, Text: func(w io.Writer) error {
		_, err := fmt.Fprintln(w, v.String())
		return err
	}}))
}
