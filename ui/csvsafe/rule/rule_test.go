package rule

import (
	"slices"
	"strings"
	"testing"
)

// TestTheRule: a record matches when a cell holds the text in any case;
// numbers compare as numbers, other cells as text in any case; a column is
// named by its header's words joined by "-", a bracketed note left out,
// and a column no header names is refused naming the columns.
func TestTheRule(t *testing.T) {
	rec := []string{"Larkspur Foods", "a.OSEI@firm.example", "2026-11-27T16:35:39Z"}
	for text, want := range map[string]bool{"osei": true, "LARK": true, "": true, "11-27 16": false, "xyz": false} {
		if got := Match(rec, text); got != want {
			t.Errorf("Match(%q) = %v, want %v", text, got, want)
		}
	}
	cells := []string{"10", "9", "100", "b", "A", "", "9.5"}
	slices.SortStableFunc(cells, Compare)
	if want := []string{"", "9", "9.5", "10", "100", "A", "b"}; !slices.Equal(cells, want) {
		t.Errorf("sorted %q, want %q", cells, want)
	}
	header := []string{"project", "deleted at (UTC)", "files", "project id"}
	for spec, want := range map[string]Sort{"deleted-at": {Col: 1}, "Deleted At (UTC),desc": {Col: 1, Desc: true}, "FILES,asc": {Col: 2}, "project_id": {Col: 3}} {
		if got, err := ParseSort(spec, header); err != nil || got != want {
			t.Errorf("ParseSort(%q) = %v, %v; want %v", spec, got, err, want)
		}
	}
	if _, err := ParseSort("size", header); err == nil || !strings.Contains(err.Error(), "project, deleted-at, files, project-id") {
		t.Errorf("an unknown column: %v", err)
	}
	if _, err := ParseSort("files,down", header); err == nil {
		t.Errorf("a direction neither asc nor desc was taken")
	}
	if got := Spell(header, 1, true); got != "deleted-at,desc" {
		t.Errorf("Spell = %q", got)
	}
}
