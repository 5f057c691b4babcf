package cli

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// A wait of the console's requests is shown by the console, on its pages;
// the headless printer's wait line ("vaultdeck: waiting 3s for the vault
// budget") was written to stderr under the console's screen, where it
// scrolled the screen a line (seen in tmux during an upload's undo, whose
// job keeps the context's observer beside its own). The console and the
// demo get a context with no observer of the printer's.
func TestTheConsoleGetsNoWaitLineOfTheCommandLine(t *testing.T) {
	for _, args := range [][]string{{}, {"demo"}} {
		var out bytes.Buffer
		errb := &ttyBuffer{}
		env := Env{Stdout: &out, Stderr: errb}
		seam := func(ctx context.Context) int {
			if fn := api.WaitObserver(ctx); fn != nil {
				fn(api.Wait{Reason: api.WaitBudget, Category: api.CategoryVault, Limit: 10, For: 3 * time.Second})
			}
			return 0
		}
		env.Console = func(ctx context.Context, _ Globals, _ ConsoleFlags) int { return seam(ctx) }
		env.Demo = func(ctx context.Context, _ Globals, _ DemoFlags) int { return seam(ctx) }
		Main(context.Background(), args, env)
		if errb.Len() > 0 {
			t.Errorf("vaultdeck %v: a wait wrote to stderr under the console: %q", args, errb.String())
		}
	}
}
