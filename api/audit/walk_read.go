package audit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// maxStretchPages bounds the pages one stretch may list (a cursor is kept
// for each): a hundred million entries in one second is no real log, and a
// listing that never reaches the stretch's end must not grow the walk's
// memory without end.
const maxStretchPages = 100_000

// read lists a stretch forward from seed up to the walk's stop into
// w.pend, holding what passes the filter within heldMost and heldBytesMost
// (the oldest pages let go past them, kept as cursors). listed is the
// entries the stretch holds, matched those that pass the filter. expect
// (0: unknown) is the entries it is expected to hold: its pages ask for a
// quarter more than remain of them, so the last one does not send a whole
// page from past the stretch's end (entries read already); when it holds
// more, the pages after ask for twice as many each time, up to full pages.
//
// A stretch that its first page shows to hold more than most (projected
// from the time that page covered to the stretch's end) is given up: dense
// is the entries a second it showed, and w.pend holds nothing of it.
func (w *walk) read(ctx context.Context, seed *api.Item[api.AuditEntry], expect, most int) (listed, matched int, dense float64, err error) {
	var ord order
	if err := ord.take(*seed); err != nil {
		return 0, 0, 0, err
	}
	first := segment{loaded: true} // never let go: it came from a search, not a page
	if e := EntryOf(*seed); w.pass(e) {
		first.entries, first.matched, first.bytes = []store.AuditEntry{e}, 1, len(e.Raw)
	}
	w.pend = append(w.pend[:0], first)
	listed, matched = 1, first.matched
	heldN, heldB, gone := first.matched, first.bytes, 1
	typ := askType(w.f)
	cursor := seed.Value.ID
	var last api.Item[api.AuditEntry] // the last entry listed, for the next page's size
	for pages := 0; ; pages++ {
		take := 0
		take = w.pageTake(pages, expect, listed, seed, last)
		if pages >= maxStretchPages {
			return listed, matched, 0, fmt.Errorf("the audit listing ran on for %s without reaching the entry it had shown later (%.40s); the read stopped rather than hold its place without end", plural.Count(pages, "page"), clean(w.stopID))
		}
		if err := w.ask(ctx); err != nil {
			return listed, matched, 0, err
		}
		page, err := w.svc.AuditPage(ctx, cursor, take, typ)
		if n := len(page.Entries); n > 0 {
			last = page.Entries[n-1]
		}
		if err != nil {
			return listed, matched, 0, err
		}
		if err := ord.take(page.Entries...); err != nil {
			return listed, matched, 0, err
		}
		s := segment{loaded: true, from: cursor, exact: page.Listed == len(page.Entries)}
		end := false
		for _, it := range page.Entries {
			if end = w.ends(it); end {
				break
			}
			s.take++
			s.last = it.Value.ID
			if e := EntryOf(it); w.pass(e) {
				s.entries = append(s.entries, e)
				s.matched++
				s.bytes += len(e.Raw)
			}
		}
		if s.take > 0 {
			listed += s.take
			matched += s.matched
			heldN += s.matched
			heldB += s.bytes
			w.pend = append(w.pend, s)
			// Past the bounds, the oldest pages go (the newest are
			// handed out first); the one just read stays.
			for gone < len(w.pend)-1 && (heldN > heldMost || heldB > heldBytesMost) {
				g := &w.pend[gone]
				heldN -= len(g.entries)
				heldB -= g.bytes
				g.entries, g.loaded, g.bytes = nil, false, 0
				gone++
			}
		}
		if end || !page.Full || page.Last == "" || page.Last == cursor {
			return listed, matched, 0, nil
		}
		if pages == 0 && most > 0 && len(page.Entries) > 0 {
			t0, t1 := seed.Value.Timestamp.Time, page.Entries[len(page.Entries)-1].Value.Timestamp.Time
			if covered, left := t1.Sub(t0), w.end.Sub(t1); covered > time.Second && left > covered {
				rate := float64(listed) / covered.Seconds()
				if float64(listed)+rate*left.Seconds() > float64(most) && w.end.Sub(t0) > 2*time.Second {
					return listed, matched, rate, nil
				}
			}
		}
		cursor = page.Last
	}
}

// pageTake is the entries to ask for in page pages of a stretch: a full
// page, but where the entries left before the stretch's end can be told
// (expect for the first page, the rate the pages so far showed for the
// others), more than those by a margin, so the last page does not
// send a whole page from past the end (entries read already).
func (w *walk) pageTake(pages, expect, listed int, seed *api.Item[api.AuditEntry], last api.Item[api.AuditEntry]) int {
	rem := -1
	if pages == 0 {
		if expect > 0 {
			return min(api.MaxAuditTake, max(expect-listed, 0)*3/2+20)
		}
	} else if t0, t1 := seed.Value.Timestamp.Time, last.Value.Timestamp.Time; t1.Sub(t0) > 0 && !w.end.IsZero() {
		// a log's rate varies: twice the projection, so a lull in the
		// pages so far costs one request more, not many
		rem = int(float64(listed) / t1.Sub(t0).Seconds() * w.end.Sub(t1).Seconds())
		return min(api.MaxAuditTake, max(2*rem+100, 100))
	}
	return api.MaxAuditTake
}

// reload lists a page that was let go again: the same entries after the
// same cursor, ending at the same id. A listing that answers otherwise
// changed under the walk, which would lose or repeat entries.
func (w *walk) reload(ctx context.Context, s *segment) error {
	if s.matched == 0 {
		s.loaded = true // nothing of it is handed out: no request
		return nil
	}
	if err := w.ask(ctx); err != nil {
		return err
	}
	take := api.MaxAuditTake
	if s.exact {
		take = s.take
	}
	page, err := w.svc.AuditPage(ctx, s.from, take, askType(w.f))
	if err != nil {
		return err
	}
	i := 0
	for ; i < len(page.Entries); i++ {
		if page.Entries[i].Value.ID == s.last {
			break
		}
	}
	if i >= len(page.Entries) || i+1 != s.take {
		return &api.Error{Kind: api.KindMalformed, Endpoint: "GET /api/v1/logs/audit", Status: 200, Err: api.ErrAuditOrder,
			Message: fmt.Sprintf("listed again after %.40s, the audit log did not give the %s it gave before, ending at %.40s: the read stopped rather than lose or repeat an entry", clean(s.from), plural.Count(s.take, "entry", "entries"), clean(s.last))}
	}
	s.entries = s.entries[:0]
	for _, it := range page.Entries[:i+1] {
		if e := EntryOf(it); w.pass(e) {
			s.entries = append(s.entries, e)
		}
	}
	s.loaded = true
	return nil
}

// clean is s without control characters, for an error's sentence.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
}
