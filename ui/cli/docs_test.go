package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestManPageTextIsInert: text from the command tree cannot become a roff
// request or escape (a line starting with a dot or a quote, a backslash).
func TestManPageTextIsInert(t *testing.T) {
	c := &cobra.Command{Use: "x", Short: `a \fBbold\fR claim`, Long: "first line\n.so /etc/passwd\n'br\nlast", Run: func(*cobra.Command, []string) {}}
	c.Flags().String("path", "", ".TH usage starting with a dot")
	page := manPage(c)
	for _, line := range strings.Split(page, "\n") {
		for _, bad := range []string{".so", "'br", ".TH usage"} {
			if strings.HasPrefix(line, bad) {
				t.Errorf("a line of the page is a roff request: %q", line)
			}
		}
	}
	if strings.Contains(page, `\fBbold`) || !strings.Contains(page, `\efBbold`) {
		t.Errorf("the backslash in Short was not escaped:\n%s", page)
	}
	if !strings.Contains(page, "--path") || !strings.Contains(page, ".SH OPTIONS") {
		t.Errorf("the flag is missing:\n%s", page)
	}
}
