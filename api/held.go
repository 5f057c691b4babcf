package api

import (
	"fmt"

	"github.com/vaultdeck/vaultdeck/api/jsonstream"
	"github.com/vaultdeck/vaultdeck/api/plural"
)

// Size limits on what a server sends (jsonstream's, named here for the
// callers of this package), and on what a caller holds. Past a limit the
// read stops with an error naming the endpoint and the limit. Documented
// in the README.
const (
	// MaxItemBytes bounds one listing item as sent (a recycle-bin entry,
	// a project, a file, an audit entry), and any other single member of
	// a streamed body. A streamed listing has no bound as a whole: the
	// recycle bin answers in one response, 64 MB for 100,000 entries.
	MaxItemBytes = jsonstream.MaxItemBytes
	// MaxStringBytes bounds one JSON string as sent, escapes included.
	MaxStringBytes = jsonstream.MaxStringBytes
	// MaxBodyBytes bounds a body that is held whole in memory: every
	// answer but the recycle bin.
	MaxBodyBytes = jsonstream.MaxBodyBytes
	// MaxHeldEntries bounds the recycle-bin entries held in memory at once
	// (the console's view, a serve session's, the headless table and
	// --check, which sort): 1.5 times a 100,000-entry bin. A server sending
	// entries without end would otherwise fill memory until the
	// whole-answer time bound (250,000 table rows already peaked at
	// 302 MB); --json, --jsonl and --csv stream any number.
	MaxHeldEntries = 150_000
	// MaxHeldBytes bounds the same entries by their size as sent: few
	// entries can be many bytes (20,000 entries with 10 KB names took
	// 1.1 GB for the table while the count cap never triggered). 1.5
	// times the 64 MB of a 100,000-entry bin, as the count cap is.
	MaxHeldBytes = 96 << 20
)

// Held counts the entries of a listing that a caller holds in memory, and
// their bytes, against MaxHeldEntries and MaxHeldBytes. The zero value is
// the recycle bin's (the table, --check, the console's view, serve), which
// counts each entry's bytes as sent; HeldProjects and HeldFiles are the
// console's paged views', which count each record's text (ProjectBytes,
// FileBytes).
type Held struct {
	n     int
	bytes int64
	lim   heldLimits // zero: MaxHeldEntries and MaxHeldBytes
	ep    endpoint   // zero: the recycle bin
	cmd   string     // the command that streams the listing instead
}

// HeldProjects bounds the projects the console's projects view keeps (every
// page scrolled through).
func HeldProjects() *Held { return &Held{ep: epProjects, cmd: "projects"} }

// HeldFiles bounds the files the console's files tab keeps.
func HeldFiles() *Held { return &Held{ep: epProjectFiles, cmd: "files PROJECT_ID"} }

// heldLimits are the bounds a Held applies: the constants, or smaller ones
// this package's tests give a Client (Client.held).
type heldLimits struct {
	n     int
	bytes int64
}

// recordOverhead is what a typed record costs beside its text: its
// struct and slice slot, roughly.
const recordOverhead = 200

// ProjectBytes is about what a decoded project holds in memory.
func ProjectBytes(p *Project) int {
	n := recordOverhead + len(p.ID) + len(p.Name) + len(p.CreatorEmail) + len(p.CreatedAt.Raw) + len(p.UpdatedAt.Raw) + len(p.ProjectUpdatedAt.Raw)
	if p.Sharing != nil {
		n += len(p.Sharing.UserShares) + len(p.Sharing.WorkspaceShares)
	}
	return n
}

// FileBytes is about what a decoded file record holds in memory.
func FileBytes(f *ProjectFile) int {
	return recordOverhead + len(f.ID) + len(f.Name) + len(f.ContentType) + len(f.ProcessingStatus) + len(f.UploadedAt.Raw)
}

// Add counts one more entry of size bytes; past either bound it returns
// the error that names the bound and the streaming ways.
func (h *Held) Add(size int) error {
	lim := h.lim
	if lim.n == 0 {
		lim = heldLimits{MaxHeldEntries, MaxHeldBytes}
	}
	h.n++
	h.bytes += int64(size)
	switch {
	case h.n > lim.n:
		return h.error("the listing has more than "+plural.Count(lim.n, "entry"), "any number")
	case h.bytes > lim.bytes:
		what := fmt.Sprintf("the listing's entries are over %s", jsonstream.SizeText(lim.bytes))
		if h.cmd == "" {
			what += " as sent"
		}
		return h.error(what, "any size")
	}
	return nil
}

// error is the one line of a listing stopped at a Held bound.
func (h *Held) error(what, streams string) *Error {
	switch {
	case h.cmd == "" && h.ep == (endpoint{}):
		return &Error{Kind: KindTooLarge, Endpoint: epRecycleBin.String(), Status: 200,
			Message: what + ", the most vaultdeck holds in memory for a table, --check or the console; `vaultdeck recycle-bin --jsonl` (or --json, or --csv) streams " + streams}
	case h.cmd == "": // a listing collected whole (Listing.Collect)
		return &Error{Kind: KindTooLarge, Endpoint: h.ep.String(), Status: 200,
			Message: what + ", the most vaultdeck holds in memory of one listing"}
	}
	return &Error{Kind: KindTooLarge, Endpoint: h.ep.String(), Status: 200,
		Message: what + ", the most the console keeps of it; `vaultdeck " + h.cmd + " --jsonl` (or --json, or --csv) streams " + streams}
}

// overLimit is the error a caller sees: one line with the endpoint, what
// went past which limit, and what it means.
func overLimit(ep endpoint, status int, le *jsonstream.LimitError, where string) *Error {
	msg := le.Error()
	if where != "" {
		msg += " (" + where + ")"
	}
	msg += "; vaultdeck stopped reading. Real answers stay far below it: the service or a proxy in between sent something broken; try again, and report it if it persists"
	return &Error{Kind: KindTooLarge, Endpoint: ep.String(), Status: status, Message: msg}
}
