package serve

import (
	"strings"
	"testing"
)

// The bound passes limit bytes between enters, drops the rest, lets a
// paste's end through even when it is split across reads, and starts
// again after enter.
func TestBoundedInputFilter(t *testing.T) {
	refusals := 0
	b := &boundedInput{limit: 10, refused: func() { refusals++ }}
	b.on.Store(true)
	var got strings.Builder
	for _, read := range []string{"\x1b[200~ab", "cdefgh\x1b[2", "01~xy", "z", "\r", "abcdefghijkl\n", "ok"} {
		p := []byte(read)
		got.Write(p[:b.filter(p)])
	}
	want := "\x1b[200~abcd\x1b[201~xyz\rabcdefghij\nok"
	if got.String() != want {
		t.Fatalf("passed %q, want %q", got.String(), want)
	}
	if refusals != 2 {
		t.Fatalf("%d refusals, want 2 (the paste, the line before \\n)", refusals)
	}
}
