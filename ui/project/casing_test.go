package project

import (
	"testing"
	"time"

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

// Sending files to File status carries each file's upload time from the
// listing, so File status dates ages by the service's clock.
func TestFilesArgCarriesUploadTimes(t *testing.T) {
	var up api.Time
	up.Time = time.Unix(1700000000, 0)
	got := FilesArg([]string{"a", "b"}, []api.ProjectFile{{ID: "a", UploadedAt: up}, {ID: "b"}})
	if got != "a@1700000000,b" {
		t.Errorf("arg %q", got)
	}
}
