package purge

import (
	"strings"
	"testing"
)

// Issue 29.8: --purging-within 0d said `"0d" is not a number of days`. It
// is one; the window is what must be more than zero, and the message says
// so and what to use instead. Its neighbours say what is wrong with them.
func TestZeroDaysSaysWhatIsWrong(t *testing.T) {
	for in, want := range map[string]string{
		"0d":     "must be more than zero: 1d lists",
		"-1d":    "must be more than zero",
		"0":      "must be more than zero",
		"5000d":  "more than ten years",
		"sevend": "is not a number of days",
	} {
		_, err := ParseWindow(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
