package api

import (
	"fmt"
	"hash/maphash"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

// PageGuard checks that every page of a paged listing is progress. A
// server (or a proxy caching one answer) that repeats a page under an
// enormous total_pages, hands out the same cursor again, or goes on past
// the listing's own total would otherwise be read forever: 123,800
// duplicate rows in a minute, no end. Every paged reader (the headless
// listings, the console's views, the project lookup) goes through one.
//
// The rules, for page-numbered and cursor listings alike:
//   - a record already handed out is not handed out again (page-numbered
//     listings shift when a project is added while they are read, so a
//     record may honestly come twice; it is dropped, not an error);
//   - a non-empty page that brings no new record repeats an earlier page,
//     and ends the read with an error naming the endpoint;
//   - a cursor handed out before ends the read the same way;
//   - a non-empty page that arrives when the records already handed out
//     make up the listing's own total ends it too.
//
// Records are remembered by a 64-bit hash of their ID (of their JSON when
// they have none): about 16 bytes a record, and no record's text is held.
type PageGuard struct {
	ep      endpoint
	what    string // "projects", "files"
	seed    maphash.Seed
	seen    map[uint64]struct{}
	cursors map[uint64]struct{}
	// repeated are the first IDs listed again, of nRepeated.
	repeated  []string
	nRepeated int
}

// maxNamedRepeats bounds the IDs a guard keeps to name.
const maxNamedRepeats = 5

// Repeats are the IDs of the records listed again (at most a few) and how
// many there were, for the listing's Summary.
func (g *PageGuard) Repeats() ([]string, int) { return g.repeated, g.nRepeated }

func newPageGuard(ep endpoint, what string) *PageGuard {
	return &PageGuard{ep: ep, what: what, seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}, cursors: map[uint64]struct{}{}}
}

// NewProjectPageGuard is the guard of a read of the workspace's project
// listing (the console's projects view, the project lookup).
func NewProjectPageGuard() *PageGuard { return newPageGuard(epProjects, "projects") }

// NewFilePageGuard is the guard of a read of a project's file listing.
func NewFilePageGuard() *PageGuard { return newPageGuard(epProjectFiles, "files") }

// fresh reports whether the record (its ID, or its JSON when the ID is
// empty) has not been handed out yet, and remembers it.
func (g *PageGuard) fresh(id string, raw []byte) bool {
	var h uint64
	if id != "" {
		h = maphash.String(g.seed, id)
	} else {
		h = maphash.Bytes(g.seed, raw) ^ 1 // apart from the IDs' hashes
	}
	if _, ok := g.seen[h]; ok {
		if g.nRepeated++; id != "" && len(g.repeated) < maxNamedRepeats {
			g.repeated = append(g.repeated, redact.Truncate(redact.Clean(id), 80))
		}
		return false
	}
	g.seen[h] = struct{}{}
	return true
}

// Fresh keeps the records of a page that were not handed out before, in
// order, and fails when a non-empty page brings none (it repeats an
// earlier page). page is the page's number (or its count, for a cursor
// listing), for the message.
func Fresh[T any](g *PageGuard, page int, items []T, id func(*T) string) ([]T, error) {
	return freshOf(g, page, items, func(t *T) (string, []byte) { return id(t), nil })
}

func freshOf[T any](g *PageGuard, page int, items []T, key func(*T) (string, []byte)) ([]T, error) {
	kept := items[:0:0]
	for i := range items {
		id, raw := key(&items[i])
		if g.fresh(id, raw) {
			kept = append(kept, items[i])
		}
	}
	if len(items) > 0 && len(kept) == 0 {
		return nil, g.fail(fmt.Sprintf("page %d holds only %s already listed: the listing repeats an earlier page", page, g.what))
	}
	if len(kept) == len(items) {
		return items, nil
	}
	return kept, nil
}

// Cursor fails when next was handed out before on this read (the listing
// would go round in a circle), and remembers it.
func (g *PageGuard) Cursor(page int, next string) error {
	h := maphash.String(g.seed, next)
	if _, ok := g.cursors[h]; ok {
		return g.fail(fmt.Sprintf("page %d hands out a next_cursor it had already given: the listing goes round in a circle", page))
	}
	g.cursors[h] = struct{}{}
	return nil
}

// Within fails when a non-empty page of a page-numbered listing arrives
// although the records already handed out make up the listing's own total
// (as this page states it: a project added while the listing is read
// raises it). Call it before Fresh on the same page.
func (g *PageGuard) Within(page, got int, p PagePagination) error {
	if got == 0 || p.Total <= 0 || int64(len(g.seen)) < int64(p.Total) {
		return nil
	}
	return g.fail(fmt.Sprintf("page %d brings %d more %s, but the %d already listed make up the listing's own total of %d", page, got, g.what, len(g.seen), int64(p.Total)))
}

func (g *PageGuard) fail(what string) *Error {
	return &Error{Kind: KindMalformed, Endpoint: g.ep.String(), Status: 200,
		Message: what + "; vaultdeck stopped reading rather than read it forever"}
}
