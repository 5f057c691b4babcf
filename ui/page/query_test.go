package page

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestQueryLineIsOneWordAValue: values a server sent (spaces, quotes,
// $(…), a leading #, a newline, a leading dash) stay one word each and run
// nothing, as /bin/sh itself reads the line.
func TestQueryLineIsOneWordAValue(t *testing.T) {
	hostile := []string{"Acme & Sons", "it's \"fine\"", "$(touch /tmp/pwned)", "#not-a-comment", "a\nb", "`id`", "x;y|z", "", "-n", "é ü 漢字", "*"}
	q := Query{Command: []string{"recycle-bin"}}
	for _, v := range hostile {
		q.Flags = append(q.Flags, Flag{Name: "deleted-by", Value: v})
	}
	q.Flags = append(q.Flags, Flag{Name: "check", Switch: true})
	line := q.Line("--csv")
	if !strings.HasPrefix(line, "vaultdeck recycle-bin --deleted-by ") || !strings.HasSuffix(line, " --check --csv") {
		t.Fatalf("line %q", line)
	}
	// sh prints each word it read, NUL-terminated; "vaultdeck" is a function
	out, err := exec.Command("sh", "-c", `vaultdeck() { for a in "$@"; do printf '%s\0' "$a"; done; }; `+line).Output()
	if err != nil {
		t.Fatalf("sh: %v", err)
	}
	words := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	want := append(q.Args(), "--csv")
	if !slices.Equal(words, want) {
		t.Errorf("sh read\n %q\nfrom %s\nwant\n %q", words, line, want)
	}
}
