package widgets

import (
	"strings"
	"testing"
)

// Issue 29.8: the re-upload dialog read "Type 2 to confirm." twice: its
// message said it and so does the dialog. The dialog is the one that says
// what to type; a message saying it too loses that sentence.
func TestConfirmSaysWhatToTypeOnce(t *testing.T) {
	c := NewConfirm(testTheme(t), "Re-upload", "Re-upload 2 stuck or failed files? Type 2 to confirm.", "2")
	if v := c.View(80); strings.Count(v, "to confirm") != 1 {
		t.Errorf("said %d times:\n%s", strings.Count(v, "to confirm"), v)
	}
}
