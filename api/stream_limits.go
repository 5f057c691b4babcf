package api

import (
	"fmt"
	"io"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// Size limits on what a server sends. A real listing item is a few KB and
// a real string far less; a broken proxy or a hostile endpoint can send one
// string of gigabytes, and holding it would take the process (and, inside
// `serve`, every session) down. Past a limit the read stops with an error
// naming the endpoint and the limit. Documented in the README.
const (
	// MaxItemBytes bounds one listing item as sent (a recycle-bin entry,
	// a project, a file, an audit entry), and any other single member of
	// a streamed body. A streamed listing has no bound as a whole: the
	// recycle bin answers in one response, 64 MB for 100,000 entries.
	MaxItemBytes = 4 << 20
	// MaxStringBytes bounds one JSON string as sent, escapes included.
	MaxStringBytes = 1 << 20
	// MaxBodyBytes bounds a body that is held whole in memory: every
	// answer but the recycle bin (a page of projects, files or audit
	// entries, whoami, get_files, an upload's or a matter batch's result).
	MaxBodyBytes = 16 << 20
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
		what := fmt.Sprintf("the listing's entries are over %s", sizeText(lim.bytes))
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

// limits are the bounds a scan or a decode applies (the constants, smaller
// in tests).
type limits struct{ item, str, body int64 }

var defaultLimits = limits{item: MaxItemBytes, str: MaxStringBytes, body: MaxBodyBytes}

// limitError is a read stopped at a limit.
type limitError struct {
	what  string // "one item is", "one string is", "the body is"
	limit int64
	of    string // "a listing item", "a string", "an answer held whole"
}

func (e *limitError) Error() string {
	return fmt.Sprintf("%s over the %s limit for %s", e.what, sizeText(e.limit), e.of)
}

func itemLimit(n int64) *limitError { return &limitError{"one item is", n, "a listing item"} }
func strLimit(n int64) *limitError  { return &limitError{"one string is", n, "a string"} }
func bodyLimit(n int64) *limitError { return &limitError{"the body is", n, "an answer held whole"} }

func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d-byte", n)
}

// overLimit is the error a caller sees: one line with the endpoint, what
// went past which limit, and what it means.
func overLimit(ep endpoint, status int, le *limitError, where string) *Error {
	msg := le.Error()
	if where != "" {
		msg += " (" + where + ")"
	}
	msg += "; vaultdeck stopped reading. Real answers stay far below it: the service or a proxy in between sent something broken; try again, and report it if it persists"
	return &Error{Kind: KindTooLarge, Endpoint: ep.String(), Status: status, Message: msg}
}

// jsonLimiter passes a body through, stopping it with a limitError once it
// passes the body limit or holds a string longer than the string limit. It
// keeps the JSON string state across reads (in a string, after a
// backslash) with one look at each byte: bodies held whole are small.
//
// It also tells the gate (when set) of progress: a read that brought more
// than whitespace between tokens. A body of whitespace forever is silence.
type jsonLimiter struct {
	r        io.Reader
	lim      limits
	gate     *progressGate
	n        int64
	inString bool
	escaped  bool
	strLen   int64
}

func (j *jsonLimiter) Read(p []byte) (int, error) {
	n, err := j.r.Read(p)
	j.n += int64(n)
	if j.n > j.lim.body {
		return 0, bodyLimit(j.lim.body)
	}
	progress := false
	for _, c := range p[:n] {
		switch {
		case !j.inString:
			switch c {
			case ' ', '\t', '\n', '\r':
			case '"':
				j.inString, j.strLen, progress = true, 0, true
			default:
				progress = true
			}
			continue
		case j.escaped:
			j.escaped = false
		case c == '\\':
			j.escaped = true
		case c == '"':
			j.inString = false
			continue
		}
		progress = true
		if j.strLen++; j.strLen > j.lim.str {
			return 0, strLimit(j.lim.str)
		}
	}
	if progress {
		j.gate.mark()
	}
	return n, err
}
