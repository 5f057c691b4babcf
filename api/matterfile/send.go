package matterfile

import (
	"context"
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
	ResultRestored      Result = "restored"
	ResultCreated       Result = "created"
	ResultUnchanged     Result = "unchanged"
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

// Service is the part of *api.Client a run needs.
type Service interface {
	DeleteMatters(ctx context.Context, pairs []api.MatterPair) (*api.MatterDeletion, error)
	UpsertMatters(ctx context.Context, pairs []api.MatterPair) (*api.MatterUpsert, error)
}

// Progress is reported after each request.
type Progress struct {
	Request, Requests int // done so far, total
	Sent, ToSend      int // pairs
}

// Hooks let the caller keep receipts and show progress. Batch receives the
// outcomes of one request (or, with request 0, the pairs refused before
// sending) and may fail the run: its error stops before the next request.
type Hooks struct {
	Batch    func(request int, outs []Outcome) error
	Progress func(Progress)
	// Wait is told of each pause before a request (the client-matters
	// budget, a Retry-After), so a long run does not look hung.
	Wait func(api.Wait)
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
}

// Counts tallies outcomes by result.
func (r *Report) Counts() map[Result]int {
	out := map[Result]int{}
	for _, o := range r.Outcomes {
		out[o.Result]++
	}
	return out
}

// Errors reports whether any pair ended in error or was not sent.
func (r *Report) Errors() bool {
	for _, o := range r.Outcomes {
		if o.Result == ResultError || o.Result == ResultNotSent {
			return true
		}
	}
	return false
}

// Delete sends the plan. Cancelling ctx stops between requests: a request
// already on the wire is allowed to finish (its context does not carry the
// cancel), so that the report can say exactly which lines were sent; one
// still waiting for the budget or a Retry-After is dropped at once and
// reported not sent (waitGate).
// DELETE is repeatable (rule 7): the api client waits out 429 and 503.
func Delete(ctx context.Context, svc Service, plan *Plan, h Hooks) *Report {
	rep := &Report{Outcomes: make([]Outcome, len(plan.Pairs))}
	rejected := plan.Rejected()
	for _, o := range rejected {
		rep.Outcomes[lineIndex(plan, o.Line)] = o
	}
	if h.Batch != nil {
		if err := h.Batch(0, rejected); err != nil {
			rep.Err = err
			markUnsent(rep, plan, 0, "not sent: the receipt could not be written")
			return rep
		}
	}
	runBatches(ctx, plan, rep, h, func(ctx context.Context, idx []int32) (*api.MatterDeletion, error) {
		pairs := make([]api.MatterPair, len(idx))
		for i, j := range idx {
			pairs[i] = api.MatterPair{ClientID: plan.Pairs[j].ClientID, MatterID: plan.Pairs[j].MatterID}
		}
		return svc.DeleteMatters(ctx, pairs)
	}, func(outs []Outcome, res *api.MatterDeletion, err error) {
		if err != nil {
			failBatch(outs, err)
		} else {
			applyDeletion(outs, res)
		}
	})
	return rep
}

// runBatches sends the plan's requests in order: call sends request idx,
// apply fills its outcomes (pre-filled with line, pair and request number)
// from the answer or the error. Each request's outcomes go to the report and
// the hooks; the run stops at a cancel, a failed request or a failed hook,
// and the report is finished (lines sent, the rest not sent).
func runBatches[R any](ctx context.Context, plan *Plan, rep *Report, h Hooks,
	call func(ctx context.Context, idx []int32) (R, error), apply func(outs []Outcome, res R, err error)) {
	n := plan.Requests()
	sent := make([]bool, n)
	for k := 0; k < n; k++ {
		if ctx.Err() != nil {
			rep.Canceled = true
			break
		}
		idx := plan.Batch(k)
		reqCtx, gate, release := sendContext(ctx, h.Wait)
		res, err := call(reqCtx, idx)
		release()
		if err != nil && gate.unsent(err) {
			rep.Canceled = true
			break
		}
		outs := make([]Outcome, len(idx))
		for i, j := range idx {
			pr := plan.Pairs[j]
			outs[i] = Outcome{Line: pr.Line, ClientID: pr.ClientID, MatterID: pr.MatterID, Request: k + 1}
		}
		apply(outs, res, err)
		for i, j := range idx {
			rep.Outcomes[j] = outs[i]
		}
		if err == nil || !refused(err) {
			rep.Sent++
			sent[k] = true
		}
		var herr error
		if h.Batch != nil {
			herr = h.Batch(k+1, outs)
		}
		if h.Progress != nil {
			h.Progress(Progress{Request: k + 1, Requests: n, Sent: min((k+1)*plan.BatchSize, len(plan.Send)), ToSend: len(plan.Send)})
		}
		if err != nil || herr != nil {
			rep.Err = errors.Join(err, herr)
			break
		}
	}
	finishReport(rep, plan, sent)
}

// finishReport names the lines sent and marks the rest not sent.
func finishReport(rep *Report, plan *Plan, sent []bool) {
	rep.SentLines = sentLines(rep, plan, sent)
	why := "not sent: the run stopped before this request"
	if rep.Canceled {
		why = "not sent: canceled before this request was sent (while waiting for the rate limit, or between requests)"
	}
	markUnsent(rep, plan, rep.Sent, why)
}

// markUnsent fills the outcomes of requests from..end, which never went.
func markUnsent(rep *Report, plan *Plan, from int, why string) {
	for k := from; k < plan.Requests(); k++ {
		for _, j := range plan.Batch(k) {
			if rep.Outcomes[j].Result != "" {
				continue
			}
			pr := plan.Pairs[j]
			rep.Outcomes[j] = Outcome{Line: pr.Line, ClientID: pr.ClientID, MatterID: pr.MatterID, Result: ResultNotSent, Detail: why}
		}
	}
}

// lineIndex finds a pair by line; lines are strictly increasing.
func lineIndex(plan *Plan, line int) int {
	lo, hi := 0, len(plan.Pairs)
	for lo < hi {
		mid := (lo + hi) / 2
		if plan.Pairs[mid].Line < line {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// sentLines lists the lines of the pairs that went out, as ranges that a
// pair refused before sending (or never sent) breaks: "2-4, 6-10001". Lines
// without a pair (blank rows) do not break a range.
func sentLines(rep *Report, plan *Plan, sent []bool) string {
	var out []string
	from, to := 0, 0
	flush := func() {
		switch {
		case from == 0:
		case from == to:
			out = append(out, fmt.Sprint(from))
		default:
			out = append(out, fmt.Sprintf("%d-%d", from, to))
		}
		from = 0
	}
	for j, o := range rep.Outcomes {
		if o.Request > 0 && sent[o.Request-1] {
			if from == 0 {
				from = plan.Pairs[j].Line
			}
			to = plan.Pairs[j].Line
			continue
		}
		flush()
	}
	flush()
	return strings.Join(out, ", ")
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
	fillMissing(outs)
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

// fillMissing gives the pairs the answer did not list an error outcome.
func fillMissing(outs []Outcome) {
	for i := range outs {
		if outs[i].Result == "" {
			outs[i].Result, outs[i].Code = ResultError, CodeMissing
			outs[i].Detail = "the service's answer did not list this pair; re-run the file to learn its state"
		}
	}
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
func failBatch(outs []Outcome, err error) {
	var ae *api.Error
	if !errors.As(err, &ae) || !refused(err) {
		for i := range outs {
			outs[i].Result, outs[i].Code = ResultError, CodeUnknown
			outs[i].Detail = "the request failed without a usable answer; the pair may or may not have changed: re-run the file (repeating a deletion is safe)"
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

// Restore re-creates pairs by POST /api/v2/matters (a deleted matter comes
// back on an upsert of its pair). An upsert is not declared repeatable, so
// a failed request is never resent: its pairs are reported not_sent (a 4xx,
// nothing changed) or outcome_unknown, and the run stops.
func Restore(ctx context.Context, svc Service, pairs []Pair, h Hooks) *Report {
	plan := &Plan{Pairs: pairs, BatchSize: api.MaxPairs, Send: make([]int32, len(pairs))}
	for i := range pairs {
		plan.Send[i] = int32(i)
	}
	rep := &Report{Outcomes: make([]Outcome, len(pairs))}
	runBatches(ctx, plan, rep, h, func(ctx context.Context, idx []int32) (*api.MatterUpsert, error) {
		body := make([]api.MatterPair, len(idx))
		for i, j := range idx {
			body[i] = api.MatterPair{ClientID: strings.TrimSpace(pairs[j].ClientID), MatterID: strings.TrimSpace(pairs[j].MatterID)}
		}
		return svc.UpsertMatters(ctx, body)
	}, func(outs []Outcome, res *api.MatterUpsert, err error) {
		switch {
		case err == nil:
			applyUpsert(outs, res)
		case refused(err):
			failBatch(outs, err)
			for i := range outs {
				outs[i].Result = ResultNotSent
			}
		default:
			failBatch(outs, err)
		}
	})
	return rep
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
	fillMissing(outs)
}
