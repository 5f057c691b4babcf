package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// Activity at a glance: counts of the mirror's entries over a range of
// time, the range's most frequent users, addresses and types, and marks
// on what stands out. Read from the mirror alone (no request), as counts
// SQLite makes along its indexes (stats_read.go), so Go sees a few hundred
// rows for a week of a million entries; the rules are stats_rules.go.

// StatsRange is what is asked: entries in [Since, Until), counted in
// buckets of By (an hour or a day, on UTC boundaries).
type StatsRange struct {
	Since, Until time.Time
	By           time.Duration // time.Hour or 24 * time.Hour
	// Type, when set, narrows the histogram and the top users and
	// addresses to that log type (ignoring case). The types' tally and the
	// marks are over every type: a burst of deletions stands out whatever
	// type the histogram shows.
	Type string
}

// Bucket is one bar of the histogram: the entries in [Start, End) (of
// Type when the range names one). The first and last are clipped to the
// range.
type Bucket struct {
	Start, End time.Time
	Count      int
}

// Tally is a name and how many entries carry it.
type Tally struct {
	Name  string
	Count int
}

// MarkKind says what stands out.
type MarkKind string

const (
	// MarkBurst: deletions or exports of one type far above the range's
	// usual count in one bucket (see burstRuns).
	MarkBurst MarkKind = "burst"
	// MarkNewAddress: a login from an address the user never used before
	// (see newAddresses).
	MarkNewAddress MarkKind = "new-address"
	// MarkOddHour: activity at an hour of the day at which the user is
	// never active (see oddHours).
	MarkOddHour MarkKind = "odd-hour"
)

// Mark is something that stands out. The entries behind it are exactly
// the mirror's entries in [Start, End) that match Type, User and IP (those
// set): Filter selects them.
type Mark struct {
	Kind           MarkKind
	Start, End     time.Time
	Type, User, IP string
	Count          int
	Why            string // one line, for a person
}

// Filter selects the entries behind the mark.
func (m Mark) Filter() store.AuditFilter {
	return store.AuditFilter{Since: m.Start, Until: m.End, Type: m.Type, User: m.User, IP: m.IP}
}

// Stats is the answer for a StatsRange.
type Stats struct {
	StatsRange
	Total   int      // entries in the range, every type
	Counted int      // entries the histogram counts (Total unless Type is set)
	Buckets []Bucket // oldest first, one per By (empty ones included)
	Users   []Tally  // the top TopN, most first (of Type when set)
	IPs     []Tally
	Types   []Tally
	Marks   []Mark // bursts (most first), then new addresses and odd hours (oldest first)
	// MoreMarks counts marks left out past MaxMarks.
	MoreMarks int
}

// Filter selects the entries behind bucket i.
func (s Stats) Filter(i int) store.AuditFilter {
	b := s.Buckets[i]
	return store.AuditFilter{Since: b.Start, Until: b.End, Type: s.Type}
}

const (
	// TopN is how many users, addresses and types are listed.
	TopN = 10
	// MaxMarks bounds the marks listed: a log where everything stands out
	// says so by the count, not by a list without end.
	MaxMarks = 200
	// HistoryLookback is how far before the range the mirror is read for
	// what is usual for a user (their addresses and their hours): four
	// weeks, so a week's question reads about five weeks of the log, not
	// its whole history.
	HistoryLookback = 28 * 24 * time.Hour
	// MaxBuckets bounds the histogram: a year by the hour is 8,760 bars.
	MaxBuckets = 10_000
)

// ErrStatsRange: the range is empty, reversed or too finely bucketed.
var ErrStatsRange = errors.New("the range must have a start before its end, and hour buckets at most 10,000 of them (about 14 months)")

// IsBurstType says a log type deletes or exports: the kinds of entry
// whose sudden number is what an admin looks for ("was there a burst of
// deletions last night?"). By name, since the service's types are many
// and grow: api:vault_delete_project, user:export_..., and so on.
func IsBurstType(t string) bool {
	t = strings.ToLower(t)
	return strings.Contains(t, "delete") || strings.Contains(t, "export")
}

// IsLoginType says a log type is a sign-in.
func IsLoginType(t string) bool { return strings.Contains(strings.ToLower(t), "login") }

// BucketStart is the start of the By-wide bucket t falls in (UTC).
func BucketStart(t time.Time, by time.Duration) time.Time { return t.UTC().Truncate(by) }

// ErrNoMirror: the mirror holds nothing of this service's log.
var ErrNoMirror = errors.New("there is no local audit mirror of this workspace yet: run `vaultdeck audit sync` to make one (it copies the log inside the audit budget), then ask again")

// MirrorLog finds the mirror's log for svc without a request when it can:
// the one log of svc's base URL. With none, ErrNoMirror; with several
// (two workspaces of one service), whoami says which (LogOf, a request
// outside every budget).
func MirrorLog(ctx context.Context, m interface {
	AuditLogs(ctx context.Context, prefix string) ([]string, error)
}, svc Service) (string, error) {
	keys, err := m.AuditLogs(ctx, LogKey(svc.Base(), ""))
	switch {
	case err != nil:
		return "", err
	case len(keys) == 0:
		return "", ErrNoMirror
	case len(keys) == 1:
		return keys[0], nil
	}
	log, _, err := LogOf(ctx, svc)
	return log, err
}

// Describe is the range as a person reads it.
func (r StatsRange) Describe() string {
	by := "hour"
	if r.By >= 24*time.Hour {
		by = "day"
	}
	return fmt.Sprintf("%s to %s UTC, by %s", r.Since.UTC().Format("2006-01-02 15:04"), r.Until.UTC().Format("2006-01-02 15:04"), by)
}

// top sorts counts most first (then by name) and keeps n.
func top(counts map[string]int, n int) []Tally {
	out := make([]Tally, 0, len(counts))
	for k, v := range counts {
		out = append(out, Tally{k, v})
	}
	slices.SortFunc(out, func(a, b Tally) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Name, b.Name))
	})
	return out[:min(n, len(out))]
}
