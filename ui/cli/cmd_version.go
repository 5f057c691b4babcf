package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

func (r *runner) versionCmd() *cobra.Command {
	return &cobra.Command{Use: "version", Short: "print the version and VCS revision of this build (--json too)", Args: cmdutil.NoArgs,
		RunE: r.run(func(context.Context, []string) int { return r.version() })}
}

// version prints the build's version (also `vaultdeck --version`).
func (r *runner) version() int {
	v := buildVersion()
	if r.g.JSON || r.g.JSONL {
		b, _ := json.Marshal(v)
		fmt.Fprintln(r.env.Stdout, string(b))
		return ExitOK
	}
	fmt.Fprintln(r.env.Stdout, v.String())
	return ExitOK
}
