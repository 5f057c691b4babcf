package cli

import (
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/themes"
)

// TestProfileSettingsYieldToFlags: stored defaults apply to flags not given;
// a flag on the command line wins (the console's flags through
// account.Resolve, as runConsole resolves them).
func TestProfileSettingsYieldToFlags(t *testing.T) {
	settings := account.ParseSettings(map[string]string{account.KeyTheme: "mono", account.KeyStuckAfter: "45m0s"}, false)
	for _, c := range []struct {
		args  []string
		theme string
		stuck time.Duration
	}{
		{nil, "mono", 45 * time.Minute},
		{[]string{"--theme", "light"}, "light", 45 * time.Minute},
		{[]string{"--stuck-after", "5m", "--theme=dark"}, "dark", 5 * time.Minute},
	} {
		var cf ConsoleFlags
		cmd := &cobra.Command{Use: "t"}
		cf.register(cmd, true)
		if err := cmd.ParseFlags(c.args); err != nil {
			t.Fatal(err)
		}
		res, err := account.Resolve(account.Request{Flags: cf.addTo(account.Flags{}), Themes: themes.Names(),
			Chosen: &account.Chosen{Profile: store.Profile{Name: "p"}, By: account.ChosenByFlag, Settings: settings}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Theme != c.theme || res.StuckAfter != c.stuck {
			t.Errorf("%v: theme %q stuck %v, want %q %v", c.args, res.Theme, res.StuckAfter, c.theme, c.stuck)
		}
	}
}
