package auditview

import (
	"slices"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestScrollingOlderReadsEachEntryAboutOnce: paging down the view without
// a mirror reads older windows of the service, each below the last. Each
// window started a walk of its own an hour wide below the last row shown
// and dropped what its stretches held beyond the 200 it showed, so going
// down 3,000 entries asked for several times the requests that carry them
// (pages of 1,000 and a search to start each stretch). The view now keeps
// the walk from window to window.
func TestScrollingOlderReadsEachEntryAboutOnce(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, false, "")
	r.run(r.m.Init())
	before := len(r.auditRequests())
	for range 400 {
		if r.m.atStart {
			break
		}
		r.key("pgdown")
	}
	asked := r.auditRequests()[before:]
	shown := r.m.Table.Len()
	searches := 0
	for _, a := range asked {
		if strings.Contains(a, "/search") {
			searches++
		}
	}
	t.Logf("%d entries shown, %d audit requests scrolling down (%d searches)", shown, len(asked), searches)
	if !r.m.atStart || shown < 3000 {
		t.Fatalf("the start was not reached: %d rows shown, at start %v", shown, r.m.atStart)
	}
	// every entry once, newest first, down to the log's first
	log := idsOf(r.log())
	slices.Reverse(log)
	shownIDs := make([]string, len(r.m.entries))
	for i, e := range r.m.entries {
		shownIDs[i] = e.ID
	}
	if at := slices.Index(log, shownIDs[0]); at < 0 || !slices.Equal(log[at:], shownIDs) {
		t.Fatalf("the rows are not the log newest first from the top row on (top at %d of %d, %d rows)", at, len(log), len(shownIDs))
	}
	// pages of 1,000 carry them; a stretch of about 1,000 entries is a
	// search and a page or two
	if most := 3*shown/1000 + 8; len(asked) > most {
		t.Errorf("%d audit requests to scroll down %d entries: want at most %d", len(asked), shown, most)
	}
}
