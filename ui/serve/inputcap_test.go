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

// Off (the console's prompts), keys and enters pass however many; a
// bracketed paste passes its start, limit bytes of content and its end,
// even when either marker is split across reads.
func TestBoundedInputPastes(t *testing.T) {
	refusals := 0
	b := &boundedInput{limit: 4, refused: func() { refusals++ }}
	var got strings.Builder
	for _, read := range []string{strings.Repeat("j", 50) + "\r\r", "\x1b[2", "00~abcdefgh\x1b[2", "01~", "kk\x1b[200~xy\x1b[201~"} {
		p := []byte(read)
		got.Write(p[:b.filterPastes(p)])
	}
	want := strings.Repeat("j", 50) + "\r\r\x1b[200~abcd\x1b[201~kk\x1b[200~xy\x1b[201~"
	if got.String() != want {
		t.Fatalf("passed %q, want %q", got.String(), want)
	}
	if refusals != 1 {
		t.Fatalf("%d refusals, want 1 (the long paste)", refusals)
	}
}
