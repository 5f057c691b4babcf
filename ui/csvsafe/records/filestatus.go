package records

import (
	"strconv"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
)

// The file status records: of IDs given (`status IDS`, the console's
// :files of pasted IDs) and of the upload journal's unfinished files
// (`status --journal`, :files with no IDs). Each is the console's columns
// in its order, then what the screen leaves out. Both faces build the same
// tracker (api/filestatus) from the same answers, so a file written at the
// same moment is the same file. The console's "In status" is an age on a
// moving clock: the file writes when that status began and what that time
// is dated from (the upload, the first answer seen, a change seen), and
// its "Flag" is the file's triage group, whose "stuck" is the flag.

// FileStatusHeader is the file status of IDs given.
func FileStatusHeader() []string {
	return []string{"name", "status", "in status since (UTC)", "dated from", "group", "file id", "type", "deleted at (UTC)"}
}

// FileStatus is one tracked file's record as of now.
func FileStatus(f *filestatus.File, now time.Time, stuckAfter time.Duration) []string {
	s := f.AsSent()
	at, from := inStatus(f)
	return []string{s.Name, statusText(f, s), at, from, f.Group(now, stuckAfter).String(), f.ID, f.ContentType, TimeOf(f.DeletedAt)}
}

// JournalStatusHeader is the journal's unfinished files, across projects:
// the uploaded path in the name's place, the project after the ID (the
// console's order), then the upload time, the run and the project's ID.
func JournalStatusHeader() []string {
	return []string{"path", "status", "in status since (UTC)", "dated from", "group", "file id", "project", "uploaded (UTC)", "run", "project id"}
}

// JournalStatus is one journaled file's record as of now. A file the
// service never confirmed has no file ID, no status time and no upload.
func JournalStatus(f *filestatus.File, now time.Time, stuckAfter time.Duration) []string {
	s := f.AsSent()
	at, from := inStatus(f)
	id, uploaded := f.ID, ""
	if f.Journal != "" {
		id = ""
	} else if !f.Uploaded.IsZero() {
		uploaded = Time(api.Time{Time: f.Uploaded})
	}
	return []string{s.Path, statusText(f, s), at, from, f.Group(now, stuckAfter).String(), id, s.Project, uploaded,
		strconv.FormatInt(f.Run, 10), f.ProjectID}
}

// inStatus is when f's status began, to the second, and what the time is
// dated from: its upload (the listing's or the journal's time, the
// service's own clock), the first answer seen (the service sends no status
// time: at least since then), or a change the console saw between polls.
func inStatus(f *filestatus.File) (at, from string) {
	if !f.Seen || f.Journal != "" || f.Since.IsZero() {
		return "", ""
	}
	switch {
	case f.SinceSeen:
		from = "first seen"
	case !f.Uploaded.IsZero() && f.Since.Equal(f.Uploaded):
		from = "upload"
	default:
		from = "change seen"
	}
	return Time(api.Time{Time: f.Since}), from
}

// StatusText is a tracked file's status column: the server's own value,
// lower-cased as get_files sends it, or what went wrong for this ID.
func StatusText(f *filestatus.File) string {
	return statusText(f, filestatus.Sent{Status: string(f.Status), Err: f.ErrText})
}

func statusText(f *filestatus.File, s filestatus.Sent) string {
	switch {
	case f.Journal != "":
		return f.Journal
	case !f.Seen:
		return "…"
	case f.NotFound:
		return "not found"
	case f.Missing:
		return "no answer"
	case s.Err != "":
		return "error: " + s.Err
	case f.Replaced:
		return "replaced"
	case s.Status == "":
		return "unknown"
	}
	return filestatus.Word(api.Status(s.Status))
}
