package projectview

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
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

// At 80 columns the Files tab has no room for IDs; `i` shows them whole
// (type and upload time give way, the status stays whole), `i` again
// goes back.
func TestFilesTabIDToggleAt80(t *testing.T) {
	id := "3f2b8c1e-9a4d-4e6f-8b2a-1c5d7e9f0a3b"
	f := fake()
	f.ProjectFilesFn = func(context.Context, string, api.FileQuery) (*api.FilePage, error) {
		return &api.FilePage{Files: []api.ProjectFile{{ID: id, Name: "brief.pdf", ProcessingStatus: "UNRECOVERABLE_FAILURE"}}}, nil
	}
	p := openProject(t, f, false)
	p.SetSize(80, 20)
	p, _ = pagetest.Press(p, "tab")
	if v := p.View(); strings.Contains(v, id) || !strings.Contains(v, "unrecoverable_failure") {
		t.Fatalf("before i:\n%s", v)
	}
	p, _ = pagetest.Press(p, "i")
	v := p.View()
	if !strings.Contains(v, id) || !strings.Contains(v, "unrecoverable_failure") {
		t.Errorf("after i:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("wider than 80: %q", l)
		}
	}
	p, _ = pagetest.Press(p, "i")
	if strings.Contains(p.View(), id) {
		t.Error("i again should hide the IDs")
	}
}
