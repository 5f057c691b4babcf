package api

import "time"

// Superseded reports whether the detail says a later upload of the file's
// name replaced it: deleted_at is set on an answer that is not a per-file
// error. The one reading of deleted_at: api/filestatus classifies such a
// file as replaced, api/upload records and reports it so.
func (f FileDetail) Superseded() bool { return !f.Failed() && f.DeletedAt != nil }

// SupersededAt is when the detail says the file was deleted (deleted_at).
// Zero when it is live. A deleted_at the client cannot read still counts:
// the file is not live, whatever the time.
func (f FileDetail) SupersededAt() time.Time {
	if f.DeletedAt == nil {
		return time.Time{}
	}
	if t := f.DeletedAt.Time; !t.IsZero() {
		return t
	}
	return time.UnixMilli(1)
}
