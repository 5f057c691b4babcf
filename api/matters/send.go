// This file sends a plan's requests in order (deletion, or restore from a
// receipt), stopping between requests on cancel, and reports every pair
// exactly once.

package matters

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
)

// Service is the part of *api.Client a run needs.
type Service interface {
	DeleteMatters(ctx context.Context, pairs []api.MatterPair) (*api.MatterDeletion, error)
	UpsertMatters(ctx context.Context, pairs []api.MatterPair) (*api.MatterUpsert, error)
	// ClientMatters is the listing a restore checks in-flight pairs
	// against before it upserts anything.
	ClientMatters() api.Listing[api.ClientMatter]
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
	// Sending is told of each request's pairs (ResultInFlight) before it is
	// sent; an error stops the run there, with that request not sent.
	Sending  func(request int, outs []Outcome) error
	Batch    func(request int, outs []Outcome) error
	Progress func(Progress)
	// Wait is told of each pause before a request (the client-matters
	// budget, a Retry-After), so a long run does not look hung.
	Wait func(api.Wait)
	// Check is asked right before each request goes out (after its wait):
	// an error stops the run there, that request not sent. The receipts'
	// store says there whether its files are still the ones it opened.
	Check func() error
}

// SendDeletions sends the plan. Cancelling ctx stops between requests: a request
// already on the wire is allowed to finish (its context does not carry the
// cancel), so that the report can say exactly which lines were sent; one
// still waiting for the budget or a Retry-After is dropped at once and
// reported not sent (waitGate).
// DELETE is repeatable (rule 7): the api client waits out 429 and 503.
func SendDeletions(ctx context.Context, svc Service, plan *Plan, h Hooks) *Report {
	rep := &Report{Outcomes: make([]Outcome, len(plan.Pairs))}
	rejected := plan.Rejected()
	for _, o := range rejected {
		rep.Outcomes[lineIndex(plan, o.Line)] = o
	}
	if h.Batch != nil {
		if err := h.Batch(0, rejected); err != nil {
			rep.Err = err
			rep.Unrecorded = append(rep.Unrecorded, unrecorded(0, rejected, err))
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
			failBatch(outs, err, "deleted")
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
		if h.Sending != nil {
			if err := h.Sending(k+1, plan.outcomes(idx, k+1, ResultInFlight)); err != nil {
				rep.Err = err
				break
			}
		}
		reqCtx, gate, release := sendContext(ctx, h.Wait)
		if h.Check != nil {
			reqCtx = api.WithCheckBeforeSending(reqCtx, h.Check)
		}
		res, err := call(reqCtx, idx)
		release()
		if err != nil && gate.unsent(err) {
			rep.Canceled = true
			break
		}
		if errors.Is(err, api.ErrNotSent) {
			rep.Err = err // Check refused it: nothing of it went out
			break
		}
		outs := plan.outcomes(idx, k+1, "")
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
			if herr = h.Batch(k+1, outs); herr != nil {
				rep.Unrecorded = append(rep.Unrecorded, unrecorded(k+1, outs, herr))
			}
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

// sendRestores re-creates pairs by POST /api/v2/matters (a deleted matter
// comes back on an upsert of its pair), in requests of at most size pairs.
// An upsert is not declared repeatable, so a failed request is never
// resent: its pairs are reported not_sent (a 4xx, nothing changed) or
// outcome_unknown, and the run stops.
func sendRestores(ctx context.Context, svc Service, pairs []Pair, size int, h Hooks) *Report {
	plan := &Plan{Pairs: pairs, BatchSize: size, Send: make([]int32, len(pairs))}
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
			failBatch(outs, err, "restored")
			for i := range outs {
				outs[i].Result = ResultNotSent
			}
		default:
			failBatch(outs, err, "restored")
		}
	})
	return rep
}

// outcomes are the blank outcomes of one request's pairs.
func (p *Plan) outcomes(idx []int32, request int, r Result) []Outcome {
	outs := make([]Outcome, len(idx))
	for i, j := range idx {
		pr := p.Pairs[j]
		outs[i] = Outcome{Line: pr.Line, ClientID: pr.ClientID, MatterID: pr.MatterID, Request: request, Result: r}
	}
	return outs
}
