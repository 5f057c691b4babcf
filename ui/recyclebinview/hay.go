package recyclebinview

import (
	"strings"
	"sync"
	"time"
)

// binHay is the filter's haystacks of one answer, by rank: every cell of
// the entry lower-cased and joined as the table joins them, except the
// purge countdown, which follows each session's clock. Built once, by the
// first session that filters, and shared with every session showing the
// answer (a binSet is immutable; the haystacks are too once built).
type binHay struct {
	once sync.Once
	hay  []string
}

// haystacks returns the shared haystacks of s, building them on first use.
func (s *binSet) haystacks() []string {
	s.hay.once.Do(func() {
		rows := rowsOf(s, nil, time.Time{}) // no column kept here follows the clock
		hay := make([]string, s.Len())
		var b strings.Builder
		for i := range hay {
			b.Reset()
			for c := range ColKB + 1 {
				if c == ColPurgeIn {
					continue
				}
				if c > 0 {
					b.WriteByte(0)
				}
				b.WriteString(rows.Text(i, c))
			}
			hay[i] = strings.ToLower(b.String())
		}
		s.hay.hay = hay
	})
	return s.hay.hay
}

// Match implements widgets.Matcher: a row passes when its shared haystack
// holds q, or its countdown at this session's load time does (computed for
// the candidates the haystack did not pass, never kept).
func (s binRows) Match(cands []int, q string) []int {
	hay := s.set.haystacks()
	out := make([]int, 0, len(cands)/4+1)
	for _, r := range cands {
		rank := r
		if !s.all {
			rank = int(s.idx[r])
		}
		if strings.Contains(hay[rank], q) || strings.Contains(strings.ToLower(s.Text(r, ColPurgeIn)), q) {
			out = append(out, r)
		}
	}
	return out
}
