// This file is the account of a run: what became of each pair, read from
// the service's answer (deleted, restored, ...) or from a failed request.
// Sending the requests is send.go's job.

package matters

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
)

// Result is what happened to one pair.
type Result string

// Results. Deletion: deleted, already_absent, error, not_sent. Restore:
// restored, created, unchanged, error, not_sent.
const (
	ResultDeleted       Result = "deleted"
	ResultAlreadyAbsent Result = "already_absent"
	ResultError         Result = "error"
	ResultNotSent       Result = "not_sent"
	// ResultInFlight is written before a request is sent and replaced by
	// its answer: a receipt left with it was killed between the two, and
	// those pairs may have been changed by the service.
	ResultInFlight  Result = "in_flight"
	ResultRestored  Result = "restored"
	ResultCreated   Result = "created"
	ResultUnchanged Result = "unchanged"
	// A restore's in-flight pairs that the service's listing shows this
	// run did not delete (Code says why: never_existed, present,
	// deleted_before): nothing is sent for them.
	ResultLeftAlone Result = "left_alone"
	// ResultUnproven: an in-flight pair the listing can neither prove
	// deleted by this run nor prove untouched; nothing is sent for it and
	// the run does not count as clean.
	ResultUnproven Result = "unproven"
	// ResultAlreadyRestored: an earlier restore of the same receipt
	// restored it; it is not sent again.
	ResultAlreadyRestored Result = "already_restored"
)

// Outcome is one pair's line in the account of a run.
type Outcome struct {
	Line     int    `json:"line"`
	ClientID string `json:"client_id"` // raw, as in the file
	MatterID string `json:"matter_id"`
	Result   Result `json:"result"`
	Code     string `json:"code,omitempty"`
	Detail   string `json:"detail,omitempty"`
	Request  int    `json:"request,omitempty"` // 1-based request that carried it; 0 when never sent
}

// Report is the end of a run. Outcomes are in input order, every pair
// exactly once.
type Report struct {
	Outcomes []Outcome
	// Sent is how many requests were answered; SentLines the line ranges
	// they carried ("2-10001, 10002-20001").
	Sent      int
	SentLines string
	Canceled  bool
	Err       error // why the run stopped early; nil when it ran to the end
	// Unrecorded are the requests whose outcomes the Batch hook could not
	// keep (the receipt could not be written): the outcomes are in
	// Outcomes, and nowhere else.
	Unrecorded []Unrecorded
}

// Unrecorded is one request whose outcomes could not be recorded.
type Unrecorded struct {
	Request int // 0: the pairs refused before sending
	Lines   string
	Counts  map[Result]int
	Err     error
}

// unrecorded describes outs, whose recording failed with err.
func unrecorded(request int, outs []Outcome, err error) Unrecorded {
	u := Unrecorded{Request: request, Counts: map[Result]int{}, Err: err}
	lines := make([]int, len(outs))
	for i, o := range outs {
		lines[i] = o.Line
		u.Counts[o.Result]++
	}
	u.Lines = LineRanges(lines)
	return u
}

// LineRanges writes increasing line numbers as ranges: "2-4, 7".
func LineRanges(lines []int) string {
	var out []string
	for i := 0; i < len(lines); {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 {
			j++
		}
		if i == j {
			out = append(out, fmt.Sprint(lines[i]))
		} else {
			out = append(out, fmt.Sprintf("%d-%d", lines[i], lines[j]))
		}
		i = j + 1
	}
	return strings.Join(out, ", ")
}

// resultOrder is the order in which summaries list results.
var resultOrder = [...]Result{ResultDeleted, ResultAlreadyAbsent, ResultRestored, ResultCreated, ResultUnchanged,
	ResultAlreadyRestored, ResultLeftAlone, ResultUnproven, ResultInFlight, ResultError, ResultNotSent}

// CountsText lists the non-zero counts in a fixed order: "deleted 3,
// already_absent 1". Any string key, since receipts keep their counts by
// name.
func CountsText[K ~string](c map[K]int) string {
	var parts []string
	for _, r := range resultOrder {
		if n := c[K(r)]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", r, n))
		}
	}
	return strings.Join(parts, ", ")
}

// LinesSent is SentLines, or "none" when no line went out.
func (r *Report) LinesSent() string {
	if r.SentLines == "" {
		return "none"
	}
	return r.SentLines
}

// Counts tallies outcomes by result.
func (r *Report) Counts() map[Result]int {
	out := map[Result]int{}
	for _, o := range r.Outcomes {
		out[o.Result]++
	}
	return out
}

// Errors reports whether any pair ended in error, was not sent or is
// unproven.
func (r *Report) Errors() bool {
	for _, o := range r.Outcomes {
		if o.Result == ResultError || o.Result == ResultNotSent || o.Result == ResultUnproven {
			return true
		}
	}
	return false
}

func key(c, m string) pairKey { return pairKey{strings.TrimSpace(c), strings.TrimSpace(m)} }

// applyDeletion files each listed pair under its input pair. Pairs sent in
// one run are distinct after trimming, so the trimmed pair identifies the
// input (error items echo the raw value, which trims to the same key).
func applyDeletion(outs []Outcome, res *api.MatterDeletion) {
	set := outcomeSetter(outs)
	for _, p := range res.Deleted {
		set(p.ClientID, p.MatterID, ResultDeleted, "", "")
	}
	for _, p := range res.AlreadyAbsent {
		set(p.ClientID, p.MatterID, ResultAlreadyAbsent, "", "")
	}
	for _, e := range res.Errors {
		set(e.ClientID, e.MatterID, ResultError, e.Error, e.Detail)
	}
	fillMissing(outs, "deleted")
}

// outcomeSetter returns a function that gives the input pair matching a
// listed pair (by trimmed key) its result.
func outcomeSetter(outs []Outcome) func(c, m string, r Result, code, detail string) {
	at := make(map[pairKey]int, len(outs))
	for i, o := range outs {
		at[key(o.ClientID, o.MatterID)] = i
	}
	return func(c, m string, r Result, code, detail string) {
		i, ok := at[key(c, m)]
		if !ok || outs[i].Result != "" {
			return // not ours, or listed twice: the first listing stands
		}
		outs[i].Result, outs[i].Code, outs[i].Detail = r, code, detail
	}
}

// fillMissing gives the pairs the answer did not list an error outcome;
// done is what the request was to do ("deleted", "restored").
func fillMissing(outs []Outcome, done string) {
	for i := range outs {
		if outs[i].Result == "" {
			outs[i].Result, outs[i].Code = ResultError, CodeMissing
			outs[i].Detail = "the service's answer did not list this pair: it may or may not have been " + done + "; " + settles(done)
		}
	}
}

// settles says what settles a pair whose outcome is unknown. Not "re-run
// the file": once a restore has brought matters back, a re-run deletes
// them again (issue 25 case 7), so no outcome recommends it.
func settles(done string) string {
	if done == "restored" {
		return "restoring the deletion's receipt again sends it again (an upsert of a pair already back changes nothing)"
	}
	return "`vaultdeck matters restore --receipt` checks it against the service's listing before sending anything"
}

// refused reports whether err means the service turned the request down
// without acting on it (a 4xx): then its pairs were not changed.
func refused(err error) bool {
	var ae *api.Error
	return errors.As(err, &ae) && ae.Status >= 400 && ae.Status < 500
}

// failBatch gives every pair of a failed request its outcome. A whole-
// request 400 maps validation_errors (loc ["matters", i, field]) to the
// pair at i; the other pairs of that request get the batch code.
func failBatch(outs []Outcome, err error, done string) {
	var ae *api.Error
	if !errors.As(err, &ae) || !refused(err) {
		for i := range outs {
			outs[i].Result, outs[i].Code = ResultError, CodeUnknown
			outs[i].Detail = "the request failed without a usable answer: the pair may or may not have been " + done + "; " + settles(done)
		}
		return
	}
	code, detail := fmt.Sprintf("http_%d", ae.Status), "the service refused the request; nothing in it changed"
	if ae.Batch != nil {
		code, detail = ae.Batch.Code, "the whole request was rejected, nothing in it changed (rule 11)"
		if ae.Batch.Detail != "" {
			detail += ": " + ae.Batch.Detail
		}
	}
	for i := range outs {
		outs[i].Result, outs[i].Code, outs[i].Detail = ResultError, code, detail
	}
	if ae.Batch == nil {
		return
	}
	for _, v := range ae.Batch.ValidationErrors {
		if len(v.Loc) < 2 || v.Loc[0] != "matters" {
			continue
		}
		i, ok := v.Loc[1].(float64)
		if !ok || int(i) < 0 || int(i) >= len(outs) {
			continue
		}
		field := ""
		if len(v.Loc) > 2 {
			field = fmt.Sprint(v.Loc[2]) + " "
		}
		outs[int(i)].Detail = fmt.Sprintf("%s%s: this pair is why the whole request was rejected; nothing in it changed", field, v.Type)
	}
}

// applyUpsert files each listed pair under its input pair, as applyDeletion.
func applyUpsert(outs []Outcome, res *api.MatterUpsert) {
	set := outcomeSetter(outs)
	for _, p := range res.Restored {
		set(p.ClientID, p.MatterID, ResultRestored, "", "")
	}
	for _, p := range res.Created {
		set(p.ClientID, p.MatterID, ResultCreated, "", "")
	}
	for _, p := range res.Unchanged {
		set(p.ClientID, p.MatterID, ResultUnchanged, "", "")
	}
	for _, e := range res.Errors {
		set(e.ClientID, e.MatterID, ResultError, e.Error, e.Detail)
	}
	fillMissing(outs, "restored")
}
