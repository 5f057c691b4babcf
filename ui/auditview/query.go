package auditview

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kballard/go-shellquote"

	"github.com/vaultdeck/vaultdeck/ui/sanitize"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Query implements page.Querier: `audit` with the type, user and address
// filters in effect, newest first as the view lists them, over what the
// view applies (issue 42):
//   - opened on ages (the last day): those ages, so a saved "last day" is
//     the last day whenever it runs, as the view is;
//   - opened on a span of times: that span, as given;
//   - opened from a saved --limit N at the newest, before its rows: that
//     count (count.go);
//   - at the log's newest entry (the view as it opens, and as it follows):
//     no time at all, the newest N shown (--limit 0 once it holds the
//     whole log for its filters), so C lists these rows and a saved view
//     shows the deletion made after it was saved, as the view would;
//   - elsewhere (after a jump): the stretch held, from its oldest entry to
//     its newest, that one included (--until is exclusive: a nanosecond
//     past it; the mirror rounds a bound up to its microseconds).
func (m *Model) Query() page.Query {
	q := page.Query{Command: []string{"audit"}}
	q.With("type", m.filter.Type)
	q.With("user", m.filter.User)
	q.With("ip", m.filter.IP)
	oldest, newest := m.heldSpan()
	switch {
	case m.inSpan && m.rel[0] != "":
		q.With("since", m.rel[0])
		if !isNow(m.rel[1]) {
			q.With("until", m.rel[1])
		}
		q.With("limit", "0")
		q.Switch("newest", true)
	case m.inSpan && !m.initial.At.IsZero() && !m.initial.Until.IsZero():
		q.With("since", m.initial.At.UTC().Format(time.RFC3339Nano))
		q.With("until", m.initial.Until.UTC().Format(time.RFC3339Nano))
		q.With("limit", "0")
		q.Switch("newest", true)
	case m.count != noCount && len(m.entries) == 0:
		// a saved view's count before its rows arrive: what it lands on
		q.With("limit", strconv.Itoa(m.count))
		q.Switch("newest", true)
	case m.atNewest && len(m.entries) > 0:
		limit := "0"
		if n := m.shownOf(m.entries); m.count != noCount && n <= m.count {
			limit = strconv.Itoa(m.count) // a saved count the log no longer fills: the same rows
		} else if !m.atStart {
			limit = strconv.Itoa(n)
		}
		q.With("limit", limit)
		q.Switch("newest", true)
	case !oldest.IsZero():
		q.With("since", oldest.UTC().Format(time.RFC3339Nano))
		q.With("until", newest.Add(time.Nanosecond).UTC().Format(time.RFC3339Nano))
		q.With("limit", "0")
		q.Switch("newest", true)
	}
	q.Switch("hide-own-reads", !m.showOwn) // the view hides them until h
	m.Table.SayExact(&q, -1, false, m.ExportTable())
	return q
}

// heldSpan is the time of the oldest and the newest entry held.
func (m *Model) heldSpan() (oldest, newest time.Time) {
	for _, e := range m.entries {
		if e.Time.IsZero() {
			continue
		}
		if oldest.IsZero() || e.Time.Before(oldest) {
			oldest = e.Time
		}
		if e.Time.After(newest) {
			newest = e.Time
		}
	}
	return oldest, newest
}

// FromQuery builds the page a saved view names (:NAME), as `:audit`
// would: its filters, and its stretch of time (FROM..UNTIL) or the time
// to land at (--since alone).
func FromQuery(env page.Env, q page.Query) (page.Page, error) {
	var words []string
	since, _ := q.Value("since")
	until, _ := q.Value("until")
	flags, text, sort := widgets.TakeRules(q.Flags)
	for _, f := range flags {
		switch f.Name {
		case "type", "user", "ip":
			if strings.ContainsAny(f.Value, " \t") {
				return nil, fmt.Errorf("--%s %q: the console's filters take one word", f.Name, f.Value)
			}
			words = append(words, f.Value)
		case "since", "until", "limit", "newest", "hide-own-reads":
		default:
			return nil, fmt.Errorf("the console's audit view has no --%s; run the view headless with vaultdeck view", f.Name)
		}
	}
	switch {
	case since != "" && until != "":
		words = append(words, since+".."+until)
	case since != "" && isAge(since):
		// --since AGE alone is "the last AGE" on the command line: the
		// span up to now, not a landing AGE ago
		words = append(words, since+"..0s")
	case since != "":
		words = append(words, since)
	case until != "":
		words = append(words, until)
	}
	arg := strings.Join(words, " ")
	if _, err := parseRoute(arg, env.Clock()); err != nil {
		return nil, err
	}
	m := New(env, arg).(*Model)
	if since == "" && until == "" {
		// at the newest: the command's newest N (its default 100 when
		// not said), which the view lands on exactly (count.go)
		m.count = 100
		if v, ok := q.Value("limit"); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("--limit %q is not a count of entries", v)
			}
			m.count = n
		}
	}
	_, hide := q.Value("hide-own-reads")
	m.showOwn = !hide
	if err := m.Table.ApplyRules(text, sort); err != nil {
		return nil, err
	}
	return m, nil
}

// relativeSpan is the FROM..UNTIL of a `:audit` argument when both are
// ages ("1d..0s"), read with the splitter the route is read with.
func relativeSpan(arg string) [2]string {
	words, err := shellquote.Split(sanitize.Line(arg))
	if err != nil {
		return [2]string{}
	}
	for _, w := range words {
		if from, until, ok := strings.Cut(w, ".."); ok && isAge(from) && isAge(until) {
			return [2]string{from, until}
		}
	}
	return [2]string{}
}

// isAge says whether s is an age back from now (36h, 7d), as ParseWhen
// reads one, rather than a date or a time.
func isAge(s string) bool {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		return err == nil && n >= 0
	}
	d, err := time.ParseDuration(s)
	return err == nil && d >= 0
}

// isNow says whether the age s is no age: now.
func isNow(s string) bool {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		return d == "0"
	}
	d, err := time.ParseDuration(s)
	return err == nil && d == 0
}
