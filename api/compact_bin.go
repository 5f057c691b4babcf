package api

import (
	"runtime/debug"
	"strings"
)

// Compacting a recycle-bin answer as it is decoded (issue 46): goccy's
// Unmarshal copies each item's bytes and the decoded strings point into
// that copy, so an entry kept as decoded holds its whole raw item (about
// 680 bytes at 100,000 entries: 68 MB of the 113 MB one session held)
// besides its struct. A kept entry's strings are rewritten to point into
// one string of their own bytes (one allocation an entry, none of the
// item's keys, quotes or fields no one reads), and the values that repeat
// across entries (types, statuses, sources, the people) into the one copy
// an interner holds.

// interner hands out one copy of each repeated value, up to a bound so
// that an answer of unique values does not grow a second index of them.
type interner struct {
	m map[string]string
}

const maxInterned = 8192

func (in *interner) of(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := in.m[s]; ok {
		return v
	}
	s = strings.Clone(s)
	if in.m == nil {
		in.m = make(map[string]string)
	}
	if len(in.m) < maxInterned {
		in.m[s] = s
	}
	return s
}

// compactRecycleBinEntry rewrites e's strings so that none points into the
// decode's buffer: the repeated ones interned, the rest substrings of one
// string built for the entry. Values and comparisons are unchanged
// (SameRecycleBinEntry holds between e before and after).
func compactRecycleBinEntry(e *RecycleBinEntry, in *interner) {
	e.ResourceType = in.of(e.ResourceType)
	e.RecycleBinStatus = in.of(e.RecycleBinStatus)
	e.DeleteSource = in.of(e.DeleteSource)
	e.DeletedByUserEmail = in.of(e.DeletedByUserEmail)
	e.VaultProject.CreatorEmail = in.of(e.VaultProject.CreatorEmail)
	own := [...]*string{&e.ID, &e.ResourceID, &e.DeletedSourceID, &e.VaultProject.ID, &e.VaultProject.Name,
		&e.DeletedAt.Raw, &e.RecycleBinPurgedScheduledAt.Raw, &e.VaultProject.CreatedAt.Raw}
	n := 0
	for _, p := range own {
		n += len(*p)
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range own {
		b.WriteString(*p)
	}
	all, at := b.String(), 0
	for _, p := range own {
		l := len(*p)
		*p = all[at : at+l]
		at += l
	}
}

// entries collects decoded entries in chunks, so that a growing slice does
// not leave its outgrown copies behind as garbage (at 100,000 entries the
// doublings came to 34 MB live at the end and as much again collected).
type entries struct {
	chunks [][]RecycleBinEntry
	n      int
}

const entriesChunk = 4096

func (es *entries) add(e RecycleBinEntry) {
	if len(es.chunks) == 0 || len(es.chunks[len(es.chunks)-1]) == entriesChunk {
		es.chunks = append(es.chunks, make([]RecycleBinEntry, 0, entriesChunk))
	}
	last := &es.chunks[len(es.chunks)-1]
	*last = append(*last, e)
	es.n++
}

// after is head followed by the collected entries, in one slice of exactly
// their number (head's entries copied, their strings shared). Never nil.
func (es *entries) after(head []RecycleBinEntry) []RecycleBinEntry {
	out := make([]RecycleBinEntry, 0, len(head)+es.n)
	out = append(out, head...)
	for i, c := range es.chunks {
		out = append(out, c...)
		es.chunks[i] = nil // collectable while the rest is copied
	}
	return out
}

// largeDecode is, as sent, the answer past which a decode hands the memory
// it used back to the system at once: the decode's garbage (every item's
// copy, the chunks) is about the answer's size again, and the runtime's
// scavenger returns it only over minutes, so a console session holding a
// 100,000-entry bin stayed near twice its body in RSS. A collection of a
// heap this size costs tens of milliseconds against the second the decode
// took; smaller answers leave it to the runtime.
const largeDecode = 16 << 20

func freeAfterLargeDecode(sent int64) {
	if sent >= largeDecode {
		debug.FreeOSMemory()
	}
}
