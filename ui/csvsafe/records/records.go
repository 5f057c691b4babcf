// Package records is the one CSV record of each listing's item that both
// the console's export (`e`) and the command line's --csv write: the same
// columns, in the order the console shows them, the same cells (times in
// RFC 3339 UTC, booleans yes or no, sizes and counts exact), so the file a
// partner opens is the same whichever face wrote it. The screen and the
// table keep their own short forms; a file is read next week, by a
// program or in Excel. Cells are the service's text as is: the writer
// (ui/csvsafe) cleans them and neutralises formulas.
package records

import (
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/store"
)

// Time is a CSV's time: RFC 3339 in UTC, to the second; "" for none,
// "invalid" for a time the service sent in no form known.
func Time(t api.Time) string {
	switch {
	case t.Invalid():
		return "invalid"
	case t.Time.IsZero():
		return ""
	}
	return t.Time.UTC().Format(time.RFC3339)
}

// TimeOf is Time of an optional time.
func TimeOf(t *api.Time) string {
	if t == nil {
		return ""
	}
	return Time(*t)
}

// Bool is a CSV's boolean.
func Bool(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// BinHeader is the recycle bin's columns: the console's entries table, in
// its order, with what its screen leaves out (the purge time beside the
// countdown, the project's ID).
func BinHeader() []string {
	return []string{"project", "deleted by", "deleted at (UTC)", "purge in", "purge at (UTC)", "files", "knowledge base", "project id"}
}

// Bin is one bin entry's record; now is the countdown's clock.
func Bin(e *api.RecycleBinEntry, now time.Time) []string {
	purgeIn := "invalid"
	if !e.RecycleBinPurgedScheduledAt.Invalid() {
		purgeIn, _ = purge.Countdown(e.RecycleBinPurgedScheduledAt.Time, now)
	}
	id := e.VaultProject.ID
	if id == "" {
		id = e.ResourceID
	}
	return []string{e.VaultProject.Name, e.DeletedByUserEmail, Time(e.DeletedAt), purgeIn, Time(e.RecycleBinPurgedScheduledAt),
		e.VaultProject.FilesCount.String(), Bool(e.VaultProject.IsKnowledgeBaseProject), id}
}

// UserHeader is a project's users: the console's users tab, in its order,
// with the user's ID.
func UserHeader() []string { return []string{"name", "email", "access", "role", "user id"} }

// User is one user's record; creator is the project's creator's e-mail:
// the owner, whom the service lists as any other user.
func User(u *api.ProjectUser, creator string) []string {
	role := ""
	if creator != "" && strings.EqualFold(u.Email, creator) {
		role = "owner"
	}
	return []string{u.Name, u.Email, u.AccessLevel, role, u.UserID}
}

// ProjectHeader is the projects list: the console's columns, in its order,
// with the project's ID.
func ProjectHeader() []string {
	return []string{"name", "files", "size", "created (UTC)", "creator", "knowledge base", "project id"}
}

// Project is one project's record: the size in bytes, exact.
func Project(p *api.Project) []string {
	return []string{p.Name, p.FilesCount.String(), p.SizeBytes.String(), Time(p.CreatedAt), p.CreatorEmail, Bool(p.IsKnowledgeBaseProject), p.ID}
}

// FileHeader is a project's files: the console's files tab, in its order,
// with the file's ID.
func FileHeader() []string {
	return []string{"name", "status", "type", "uploaded (UTC)", "size", "file id"}
}

// File is one file's record: the status as the service words it (any case
// it sent, lower), the size in bytes, exact.
func File(f *api.ProjectFile) []string {
	return []string{f.Name, filestatus.Word(f.ProcessingStatus), f.ContentType, Time(f.UploadedAt), f.Size.String(), f.ID}
}

// AuditHeader is the audit log: the console's columns, in its order, with
// the entry's ID.
func AuditHeader() []string { return []string{"time (UTC)", "type", "user", "ip", "entry id"} }

// Audit is one entry's record: its time to the second, RFC 3339 UTC.
func Audit(e *store.AuditEntry) []string {
	return []string{Time(api.Time{Time: e.Time}), e.Type, e.User, e.IP, e.ID}
}

// GroupHeader is the bin grouped by who deleted (the console's `b`): its
// columns, in its order, with the next purge's time beside its countdown.
func GroupHeader(window time.Duration) []string {
	return []string{"deleted by", "projects", "within " + purge.FormatWindow(window), "next purge", "next purge at (UTC)"}
}

// Group is one deleter's record; now is the countdown's clock.
func Group(g *purge.Group, now time.Time) []string {
	next, _ := purge.Countdown(g.NextPurge, now)
	at := ""
	if !g.NextPurge.IsZero() {
		at = g.NextPurge.UTC().Format(time.RFC3339)
	}
	return []string{g.DeletedBy, strconv.Itoa(g.Projects), strconv.Itoa(g.Within), next, at}
}
