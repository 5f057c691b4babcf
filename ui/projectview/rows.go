// Package projectview is one project's page: tabs for its users and its files,
// deletion behind a typed confirmation, and a hand-off of file IDs to the
// file-status view.
package projectview

import (
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// UserColumns of the users tab.
func UserColumns() []widgets.Column {
	return []widgets.Column{
		{Title: "name", Width: 14, Min: 8, Grow: 2, Priority: 3, Elide: widgets.ElideMiddle},
		{Title: "email", Width: 18, Min: 10, Grow: 3, Priority: 2, Elide: widgets.ElideEmail},
		{Title: "access", Width: 7, Priority: 1},
		{Title: "role", Width: 6},
		{Title: "user id", ExportOnly: true, RowID: true},
	}
}

// UserRows builds the users tab. The owner is the project's creator; the
// service lists only explicit access, so the owner is marked, not inferred.
func UserRows(us []api.ProjectUser, creatorEmail string) []widgets.Row {
	rows := make([]widgets.Row, len(us))
	for i, u := range us {
		role := ""
		if creatorEmail != "" && strings.EqualFold(u.Email, creatorEmail) {
			role = "owner"
		}
		rows[i] = widgets.Row{ID: u.UserID, Cells: []string{
			sanitize.Line(u.Name), sanitize.Line(u.Email), sanitize.Line(u.AccessLevel), role,
		}}
	}
	return rows
}

// FileColumns of the files tab.
func FileColumns() []widgets.Column {
	return []widgets.Column{
		// The status never truncates (the longest is unrecoverable_failure);
		// name and type, free text, give way first.
		{Title: "name", Width: 16, Min: 10, Grow: 3, Priority: 3, Elide: widgets.ElideMiddle},
		{Title: "status", Width: 21, Priority: 2},
		{Title: "type", Width: 8, Grow: 1, Elide: widgets.ElideMiddle}, // a MIME type differs at its end
		{Title: "uploaded", Width: 16, Min: 11, Numeric: true, Elide: widgets.ElideDate, ExportTitle: "uploaded (UTC)"},
		{Title: "size", Width: 9, Align: widgets.AlignRight, Numeric: true, Priority: 1},
		{Title: "", Width: 0, ExportTitle: "file id"}, // the ID, shown with `i` (FileColumnsWithIDs)
	}
}

// FileColumnsWithIDs is the files tab with IDs whole (`i`): the ID takes a
// UUID's width; type and upload time give way, the name takes what is
// left, the status stays whole.
func FileColumnsWithIDs() []widgets.Column {
	cols := FileColumns()
	cols[0] = widgets.Column{Title: "name", Width: 0, Grow: 1, Priority: 3, Elide: widgets.ElideMiddle}
	cols[2] = widgets.Column{Title: "", Width: 0, ExportTitle: "type"}
	cols[3] = widgets.Column{Title: "", Width: 0, Numeric: true, ExportTitle: "uploaded (UTC)"}
	cols[5] = widgets.Column{Title: "id", Width: 36, ExportTitle: "file id"}
	return cols
}

// FilesArg is the File status argument for ids: each with @EPOCH_SECONDS,
// its upload time from the listing, when known, so File status counts ages
// from the service's time and flags an old processing file at once.
func FilesArg(ids []string, files []api.ProjectFile) string {
	up := make(map[string]int64, len(files))
	for _, f := range files {
		if !f.UploadedAt.IsZero() {
			up[f.ID] = f.UploadedAt.Unix()
		}
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id
		if s, ok := up[id]; ok && s > 0 {
			parts[i] += "@" + strconv.FormatInt(s, 10)
		}
	}
	return strings.Join(parts, ",")
}

// FileRows builds the files tab; failures are red, work in progress amber.
func FileRows(fs []api.ProjectFile) []widgets.Row {
	rows := make([]widgets.Row, len(fs))
	for i, f := range fs {
		up := "-"
		switch {
		case f.UploadedAt.Invalid():
			up = "invalid"
		case !f.UploadedAt.IsZero():
			up = f.UploadedAt.UTC().Format("2006-01-02 15:04")
		}
		size := "invalid"
		if f.Size.Valid() {
			size = humanize.Bytes(uint64(f.Size))
		}
		rows[i] = widgets.Row{
			ID: f.ID,
			Cells: []string{
				sanitize.Line(f.Name), sanitize.Line(filestatus.Word(f.ProcessingStatus)), sanitize.Line(f.ContentType),
				up, size, sanitize.Line(f.ID),
			},
			Nums:  []float64{0, 0, 0, float64(f.UploadedAt.Unix()), float64(f.Size), 0},
			Tones: []widgets.Tone{1: statusTone(f.ProcessingStatus)},
		}
	}
	return rows
}

func statusTone(s api.Status) widgets.Tone {
	switch {
	case s.Is(api.StatusUnrecoverableFailure), s.Is(api.StatusRecoverableFailure):
		return widgets.ToneAlarm
	case !filestatus.Known(s): // as received, never "done"
		return widgets.ToneWarn
	case !s.Terminal():
		return widgets.ToneWarn
	}
	return widgets.ToneOK
}

// Statuses is the cycle of the status filter ("" = all).
func Statuses() []string {
	return []string{"", string(api.StatusUploaded), string(api.StatusProcessing), string(api.StatusReadyToQuery),
		string(api.StatusReadyToReview), string(api.StatusRecoverableFailure), string(api.StatusUnrecoverableFailure)}
}

// DeleteOutcome says what the service answered to a deletion, in its words.
func DeleteOutcome(r *api.DeleteProjectResult) (text string, failed bool) {
	switch r.Outcome() {
	case api.DeletePartial:
		return sanitize.Line(r.Error) + " (failed folders: " + strconv.FormatInt(int64(r.Details.FailedFolders), 10) +
			", failed files: " + strconv.FormatInt(int64(r.Details.FailedFiles), 10) + ")", true
	case api.DeleteRefused:
		return "refused: " + sanitize.Line(r.Error), true
	}
	msg := sanitize.Line(r.Message)
	if msg == "" {
		msg = "Project deletion is in progress"
	}
	return msg, false
}
