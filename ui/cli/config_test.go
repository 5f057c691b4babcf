package cli

import (
	"flag"
	"testing"
	"time"
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
		var cf consoleFlags
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		cf.register(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		cf.applySettings(fs, settings)
		if cf.theme != c.theme || cf.stuckAfter != c.stuck {
			t.Errorf("%v: theme %q stuck %v, want %q %v", c.args, cf.theme, cf.stuckAfter, c.theme, c.stuck)
		}
	}
}
