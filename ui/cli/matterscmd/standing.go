package matterscmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// look reads the service's client-matter list once and says each pair's
// standing (matters.Look); nothing is sent.
func (o *Options) look(ctx context.Context, plan *matters.Plan) (*matters.Known, error) {
	if len(plan.Send) == 0 {
		return nil, nil
	}
	c, err := o.Client()
	if err != nil {
		return nil, err
	}
	k, err := matters.Look(o.IO.Watch(ctx), c, plan)
	switch {
	case errors.Is(err, matters.ErrNoMapping):
		return nil, fmt.Errorf("%w, so no pair's standing is known", err)
	case err != nil:
		return nil, fmt.Errorf("the service's client-matter list could not be read, so no pair's standing is known: %w", err)
	}
	return k, nil
}

// standingSummary is the preview's lines of what the service's list shows:
// how many records, and how many pairs exist, are deleted, are unknown.
func standingSummary(w io.Writer, k *matters.Known, err error) {
	if err != nil {
		fmt.Fprintf(w, "standing  not known: %s\n", sanitize.Line(err.Error()))
		return
	}
	if k == nil {
		return
	}
	fmt.Fprintf(w, "service   lists %s (GET /api/v1/client_matters, name_delimiter %q)\n", plural.Count(k.Listed, "client matter"), k.Delimiter)
	var parts []string
	for _, s := range matters.Standings() {
		parts = append(parts, fmt.Sprintf("%s %d", s, k.Count(s)))
	}
	fmt.Fprintf(w, "standing  %s\n", strings.Join(parts, ", "))
	if n := k.Count(matters.StandingUnknown); n > 0 {
		fmt.Fprintf(w, "unknown   %s the service does not list, which the deletion would answer already_absent\n", plural.Count(n, "pair"))
	}
	if n := k.Count(matters.StandingConflict); n > 0 {
		fmt.Fprintf(w, "conflict  %s whose pair and stored name point at different matters: the deletion would answer identity_conflict\n", plural.Count(n, "pair"))
	}
}

// standingHeader is the table of pairs that a deletion would not delete.
var standingHeader = []string{"LINE", "CLIENT_ID", "MATTER_ID", "STANDING", "MATTER", "DELETED_AT"}

// printStanding lists every pair that does not exist as a live matter
// (unknown, already deleted, conflict), in the file's order.
func printStanding(w io.Writer, k *matters.Known) error {
	if k == nil || k.Count(matters.StandingExists) == k.Len() {
		return nil
	}
	fmt.Fprintln(w)
	return printer.AlignedOnScreen(w, func(row func([]string)) error {
		row(standingHeader)
		for i := range k.Len() {
			if k.Standing(i) == matters.StandingExists {
				continue
			}
			ps := k.At(i)
			at := ""
			if !ps.DeletedAt.IsZero() {
				at = ps.DeletedAt.UTC().Format(time.RFC3339)
			}
			cells := []string{fmt.Sprint(ps.Line), quoteBlank(ps.ClientID), quoteBlank(ps.MatterID), ps.Standing, ps.Name, at}
			for j, c := range cells {
				if c = sanitize.Line(c); c == "" {
					c = "-"
				}
				cells[j] = c
			}
			row(cells)
		}
		return nil
	})
}

// standingJSON is the preview's JSON of the standing: the counts and
// every pair, or the error.
func standingJSON(k *matters.Known, err error) map[string]any {
	if err != nil {
		return map[string]any{"standing_error": err.Error()}
	}
	if k == nil {
		return map[string]any{}
	}
	counts := map[string]int{}
	for _, s := range matters.Standings() {
		counts[s.String()] = k.Count(s)
	}
	pairs := make([]matters.PairStanding, 0, k.Len())
	for i := range k.Len() {
		pairs = append(pairs, k.At(i))
	}
	return map[string]any{"listed": k.Listed, "name_delimiter": k.Delimiter, "standing": counts, "pairs_standing": pairs}
}
