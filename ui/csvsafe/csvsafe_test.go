package csvsafe

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

func TestCellNeutralisesFormulas(t *testing.T) {
	for in, want := range map[string]string{
		"":                       "",
		"plain":                  "plain",
		"=HYPERLINK(\"x\")":      "'=HYPERLINK(\"x\")",
		"+1+2":                   "'+1+2",
		"-2+3+cmd|' /C calc'!A0": "'-2+3+cmd|' /C calc'!A0",
		"@SUM(A1)":               "'@SUM(A1)",
		"\t=1":                   "' =1",
		"\r=1":                   "' =1",
		"\x1b[31m=1":             "'=1",
		"-12":                    "-12",
		"3.5":                    "3.5",
		"-":                      "'-",
		"a\nb":                   "a\nb",
		"x=1":                    "x=1",
	} {
		if got := Cell(in); got != want {
			t.Errorf("Cell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCSVReadsBack(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	rows := [][]string{{"NAME", "N"}, {"=cmd", "1"}, {"a \"q\", b\nc", "-4"}}
	for _, r := range rows {
		if err := w.Row(r...); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"NAME", "N"}, {"'=cmd", "1"}, {"a \"q\", b\nc", "-4"}}
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("record %d cell %d = %q, want %q", i, j, got[i][j], want[i][j])
			}
		}
	}
}

// TestExcelDialect: the BOM once, first, and CRLF line ends (a quoted line
// break inside a cell too, as encoding/csv writes it); nothing written, nothing.
func TestExcelDialect(t *testing.T) {
	var b strings.Builder
	c := NewExcelWriter(&b)
	_ = c.Row("project", "note")
	_ = c.Row("Bellhaven — Share Purchase", "two\nlines")
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := "\ufeffproject,note\r\nBellhaven — Share Purchase,\"two\r\nlines\"\r\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
	var empty strings.Builder
	if err := NewExcelWriter(&empty).Flush(); err != nil || empty.Len() != 0 {
		t.Errorf("an empty CSV wrote %q", empty.String())
	}
}
