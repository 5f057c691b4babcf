package records

import "github.com/vaultdeck/vaultdeck/api/filestatus"

// FileStatusHeader is the file status of IDs given (`status IDS`, the
// console's :files of pasted IDs): the console's name and status, in its
// order, then what the service's answer adds (type, deleted at) and the ID.
// The console's "in status" and "stuck" are its own measure across polls
// (the service sends no status time): a single read cannot say them, so
// the file leaves them out.
func FileStatusHeader() []string {
	return []string{"name", "status", "type", "deleted at (UTC)", "file id"}
}

// FileStatus is one tracked file's record, its status as the console
// words it (not found, no answer, error: …, replaced, or the service's).
func FileStatus(f *filestatus.File) []string {
	return []string{f.Name, StatusText(f), f.ContentType, TimeOf(f.DeletedAt), f.ID}
}

// StatusText is a tracked file's status column: the server's own value,
// lower-cased as get_files sends it, or what went wrong for this ID.
func StatusText(f *filestatus.File) string {
	switch {
	case f.Journal != "":
		return f.Journal
	case !f.Seen:
		return "…"
	case f.NotFound:
		return "not found"
	case f.Missing:
		return "no answer"
	case f.ErrText != "":
		return "error: " + f.ErrText
	case f.Replaced:
		return "replaced"
	case f.Status == "":
		return "unknown"
	}
	return filestatus.Word(f.Status)
}
