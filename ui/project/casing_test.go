package project

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// The Files tab spells statuses as File status and the CLI do, and the
// status column is wide enough for the longest status at 80 columns: enum
// columns never truncate, the free-text name gives way first.
func TestFilesTabStatusOneCasingNeverTruncated(t *testing.T) {
	rows := FileRows([]api.ProjectFile{{ID: "f", Name: "a very long file name that goes on and on.pdf", ProcessingStatus: "UNRECOVERABLE_FAILURE"}})
	if got := rows[0].Cells[1]; got != "unrecoverable_failure" {
		t.Errorf("status cell %q", got)
	}
	cols := FileColumns()
	w := 80 - 2 - (len(cols) - 1) // gutter and separators
	need := 0
	for _, c := range cols {
		need += c.Width
	}
	if need > w {
		t.Fatalf("minimum widths %d do not fit 80 columns (%d)", need, w)
	}
	if cols[1].Width < len("unrecoverable_failure") || cols[1].Grow != 0 {
		t.Errorf("status column %+v would truncate", cols[1])
	}
}
