package cli

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWriteAlignedIsTheTable: the two-pass printer writes what the
// tabwriter table writes, byte for byte, for rows with empty cells, wide
// characters, escape sequences and ragged widths.
func TestWriteAlignedIsTheTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"", "a", "Share Purchase", "é–ü", "\x1b[2Jx", "tab\there", strings.Repeat("n", 300), "日本語"}
	for round := range 50 {
		rows := [][]string{{"NAME", "ID", "WHEN"}}
		for range rng.IntN(6) {
			rows = append(rows, []string{words[rng.IntN(len(words))], words[rng.IntN(len(words))], words[rng.IntN(len(words))]})
		}
		var want, got bytes.Buffer
		tb := newTable(&want, rows[0]...)
		for _, r := range rows[1:] {
			tb.row(r...)
		}
		if err := tb.flush(); err != nil {
			t.Fatal(err)
		}
		if err := writeAligned(&got, len(rows), func(i int) []string { return rows[i] }); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("round %d, rows %q:\ngot\n%s\nwant\n%s", round, fmt.Sprint(rows), got.String(), want.String())
		}
	}
}
