package printer

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"text/tabwriter"
)

// TestAlignedIsTheTabwriterTable: the two-pass printer writes what the
// tabwriter table wrote, byte for byte, for rows with empty cells, wide
// characters, escape sequences and ragged widths.
func TestAlignedIsTheTabwriterTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"", "a", "Share Purchase", "é–ü", "\x1b[2Jx", "tab\there", strings.Repeat("n", 300), "日本語"}
	for round := range 50 {
		rows := [][]string{{"NAME", "ID", "WHEN"}}
		for range rng.IntN(6) {
			rows = append(rows, []string{words[rng.IntN(len(words))], words[rng.IntN(len(words))], words[rng.IntN(len(words))]})
		}
		var want, got bytes.Buffer
		tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
		for _, r := range rows {
			io.WriteString(tw, strings.Join(cleanRow(r), "\t")+"\n")
		}
		if err := tw.Flush(); err != nil {
			t.Fatal(err)
		}
		err := Aligned(&got, func(row func([]string)) error {
			for _, r := range rows {
				row(r)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("round %d, rows %q:\ngot\n%s\nwant\n%s", round, fmt.Sprint(rows), got.String(), want.String())
		}
	}
}
