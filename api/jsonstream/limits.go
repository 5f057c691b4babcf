package jsonstream

import (
	"fmt"
	"io"
)

// Size limits on what a server sends. A real listing item is a few KB and
// a real string far less; a broken proxy or a hostile endpoint can send one
// string of gigabytes, and holding it would take the process (and, inside
// `serve`, every session) down. Past a limit the read stops with a
// *LimitError (package api names the endpoint). Documented in the README.
const (
	// MaxItemBytes bounds one item of a walked array as sent (a
	// recycle-bin entry, a project, a file, an audit entry), and any other
	// single value beside it. A walked body has no bound as a whole: the
	// recycle bin answers in one response, 64 MB for 100,000 entries.
	MaxItemBytes = 4 << 20
	// MaxStringBytes bounds one JSON string as sent, escapes included.
	MaxStringBytes = 1 << 20
	// MaxBodyBytes bounds a body that is held whole in memory: every
	// answer but the recycle bin (a page of projects, files or audit
	// entries, whoami, get_files, an upload's or a matter batch's result).
	MaxBodyBytes = 16 << 20
)

// Limits are the bounds a scan or a Limiter applies: Default, or smaller
// ones in tests.
type Limits struct{ Item, Str, Body int64 }

// Default is the limits of every read: the constants.
var Default = Limits{Item: MaxItemBytes, Str: MaxStringBytes, Body: MaxBodyBytes}

// LimitError is a read stopped at a limit.
type LimitError struct {
	What  string // "one item is", "one string is", "the body is"
	Limit int64
	Of    string // "a listing item", "a string", "an answer held whole"
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s over the %s limit for %s", e.What, SizeText(e.Limit), e.Of)
}

// ItemLimit is the error of an item over n bytes.
func ItemLimit(n int64) *LimitError { return &LimitError{"one item is", n, "a listing item"} }

// StrLimit is the error of a string over n bytes.
func StrLimit(n int64) *LimitError { return &LimitError{"one string is", n, "a string"} }

// BodyLimit is the error of a body held whole over n bytes.
func BodyLimit(n int64) *LimitError { return &LimitError{"the body is", n, "an answer held whole"} }

// SizeText says n bytes as a limit is said: "4 MiB", "512 KiB", "100-byte".
func SizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d-byte", n)
}

// Limiter passes a body through, stopping it with a *LimitError once it
// passes the body limit or holds a string longer than the string limit. It
// keeps the JSON string state across reads (in a string, after a
// backslash) with one look at each byte: bodies held whole are small.
//
// It also tells Progress (when set) of progress: a read that brought more
// than whitespace between tokens. A body of whitespace forever is silence.
type Limiter struct {
	R        io.Reader
	Lim      Limits
	Progress *Progress
	n        int64
	inString bool
	escaped  bool
	strLen   int64
}

func (j *Limiter) Read(p []byte) (int, error) {
	n, err := j.R.Read(p)
	j.n += int64(n)
	if j.n > j.Lim.Body {
		return 0, BodyLimit(j.Lim.Body)
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
		if j.strLen++; j.strLen > j.Lim.Str {
			return 0, StrLimit(j.Lim.Str)
		}
	}
	if progress {
		j.Progress.Mark()
	}
	return n, err
}
