package cli

import (
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// TestProfileSettingsYieldToFlags: stored defaults apply to flags not given;
// a flag on the command line wins.
func TestProfileSettingsYieldToFlags(t *testing.T) {
	settings := map[string]string{settingTheme: "mono", settingStuckAfter: "45m0s"}
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
		cf.register(cmd)
		if err := cmd.ParseFlags(c.args); err != nil {
			t.Fatal(err)
		}
		cf.applySettings(settings)
		if cf.Theme != c.theme || cf.StuckAfter != c.stuck {
			t.Errorf("%v: theme %q stuck %v, want %q %v", c.args, cf.Theme, cf.StuckAfter, c.theme, c.stuck)
		}
	}
}
