// This file is a restore: which pairs of a deletion receipt may be sent
// back, proven by the receipt itself or by the service's listing, and the
// run that sends them.

package matters

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// InFlight is a pair whose request was sent but whose answer was never
// recorded (the run was killed, or the receipt could not be written).
type InFlight struct {
	Pair
	SentAt time.Time // when it went out, on this machine's clock
}

// RestorePlan is what a restore of one deletion receipt may do, read from
// the store alone (the listing is consulted by Restore).
type RestorePlan struct {
	Receipt store.Receipt
	// Proven are the pairs the service answered "deleted" for.
	Proven []Pair
	// InFlight must be checked against the service before any is sent: an
	// upsert of a pair that does not exist creates it. It holds the pairs
	// sent whose outcome is unknown too (outcome_unknown,
	// missing_from_response).
	InFlight []InFlight
	// Done are pairs an earlier restore of this receipt already restored
	// (or found present): they are not sent again. DoneBy names those
	// restores.
	Done   []Outcome
	DoneBy []int64
	// Later are in-flight pairs another deletion on this machine sent
	// after this run's request went out (takeSentLater): not sent.
	Later   []Outcome
	LaterBy []int64 // the receipts that sent them, in order
	// batchSize is the most pairs one request carries; 0 is the service's
	// limit (api.MaxPairs). A test seam: this package's tests make it
	// small to walk several requests.
	batchSize int
}

// Candidates is how many pairs the restore may send.
func (p *RestorePlan) Candidates() int { return len(p.Proven) + len(p.InFlight) }

// PlanRestore reads deletion receipt id after checking that the store is
// whole: a damaged file must never read as "nothing to restore".
func PlanRestore(st Receipts, id int64) (*RestorePlan, error) {
	if err := st.Check(); err != nil {
		return nil, err
	}
	r, err := st.Receipt(id)
	if err != nil {
		return nil, err
	}
	if r.Action != "delete" {
		return nil, fmt.Errorf("receipt %d is a restore, not a deletion", id)
	}
	p := &RestorePlan{Receipt: r}
	done, err := restoredBefore(st, p)
	if err != nil {
		return nil, err
	}
	err = st.ReceiptItems(id, "", func(it store.ReceiptItem) error {
		pr := Pair{Line: it.Line, ClientID: it.ClientID, MatterID: it.MatterID}
		sent := Result(it.Result) == ResultInFlight || unknown(it)
		if by, ok := done[it.Line]; ok && (it.Result == string(ResultDeleted) || sent) {
			p.Done = append(p.Done, Outcome{Line: it.Line, ClientID: it.ClientID, MatterID: it.MatterID,
				Result: ResultAlreadyRestored, Detail: fmt.Sprintf("restored by receipt %d; not sent again", by)})
			return nil
		}
		switch {
		case Result(it.Result) == ResultDeleted:
			p.Proven = append(p.Proven, pr)
		case sent:
			p.InFlight = append(p.InFlight, InFlight{Pair: pr, SentAt: it.SentAt})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := takeSentLater(st, p); err != nil {
		return nil, err
	}
	return p, nil
}

// unknown reports whether a deletion's item was sent but its outcome is
// unknown (the answer was lost, or did not list it): like an in-flight
// pair, the service may have deleted it, so the listing decides. Its send
// time is the in-flight one, kept when the error replaced it.
func unknown(it store.ReceiptItem) bool {
	return Result(it.Result) == ResultError && (it.Code == CodeUnknown || it.Code == CodeMissing)
}

// restoredBefore maps each line of receipt p.Receipt that an earlier
// restore of it settled (restored, or found unchanged) to that restore.
func restoredBefore(st Receipts, p *RestorePlan) (map[int]int64, error) {
	all, err := st.Receipts()
	if err != nil {
		return nil, err
	}
	done := map[int]int64{}
	for _, r := range all {
		if r.Action != "restore" || r.RestoreOf != p.Receipt.ID {
			continue
		}
		n := 0
		err := st.ReceiptItems(r.ID, "", func(it store.ReceiptItem) error {
			switch Result(it.Result) {
			case ResultRestored, ResultUnchanged, ResultAlreadyRestored:
				if _, ok := done[it.Line]; !ok {
					done[it.Line] = r.ID
					n++
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if n > 0 {
			p.DoneBy = append(p.DoneBy, r.ID)
		}
	}
	slices.Sort(p.DoneBy)
	return done, nil
}

// Restore sends back the pairs plan proves this deletion run deleted: the
// ones the service answered "deleted" for, and the in-flight ones that the
// client-matters listing shows deleted after their request was sent
// (Judge). The others are recorded as left alone or unproven and never
// sent. The restore is a receipt of its own that names the one it undid.
// A plan with nothing to send or check returns a nil report.
func Restore(ctx context.Context, d Deps, plan *RestorePlan, w Watch) (int64, *Report, error) {
	if plan.Candidates() == 0 {
		return 0, nil, nil
	}
	send := slices.Clone(plan.Proven)
	var kept []Outcome
	if len(plan.InFlight) > 0 {
		verdicts, err := Judge(ctx, d.Service, plan.InFlight)
		if err != nil {
			return 0, nil, fmt.Errorf("the pairs in flight could not be checked against the service, so nothing was restored: %w", err)
		}
		for i, v := range verdicts {
			if v.Result == "" {
				send = append(send, plan.InFlight[i].Pair)
			} else {
				kept = append(kept, v)
			}
		}
		slices.SortFunc(send, func(a, b Pair) int { return a.Line - b.Line })
	}
	kept = append(kept, plan.Done...)
	kept = append(kept, plan.Later...)
	slices.SortFunc(kept, func(a, b Outcome) int { return a.Line - b.Line })
	src := plan.Receipt
	rid, err := d.Store.StartReceipt(stamp(ctx, store.Receipt{Action: "restore", RestoreOf: src.ID, Profile: d.by(ctx), Endpoint: d.Endpoint,
		FileName: src.FileName, FileSHA256: src.FileSHA256, Pairs: len(send) + len(kept)}))
	if err != nil {
		return 0, nil, &ReceiptError{err}
	}
	h := hooks(d.Store, rid, w)
	var rep *Report
	if err := d.Store.AddReceiptItems(rid, Items(kept)); err != nil {
		// nothing was sent: every pair to send is reported not sent
		rep = &Report{Err: err, Outcomes: make([]Outcome, len(send)),
			Unrecorded: []Unrecorded{{Lines: lineRanges(kept), Counts: counts(kept), Err: err}}}
		for i, p := range send {
			rep.Outcomes[i] = Outcome{Line: p.Line, ClientID: p.ClientID, MatterID: p.MatterID,
				Result: ResultNotSent, Detail: "not sent: the receipt could not be written"}
		}
	} else {
		size := plan.batchSize
		if size <= 0 || size > api.MaxPairs {
			size = api.MaxPairs
		}
		rep = sendRestores(ctx, d.Service, send, size, h)
	}
	rep.Outcomes = mergeByLine(rep.Outcomes, kept)
	return rid, rep, finish(d.Store, rid, rep)
}

// mergeByLine merges two outcome lists that are each in line order.
func mergeByLine(a, b []Outcome) []Outcome {
	out := make([]Outcome, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j == len(b) || (i < len(a) && a[i].Line < b[j].Line) {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	return out
}

// NothingToRestore says why a plan has nothing to send: an earlier restore
// did it all, or the deletion deleted nothing.
func NothingToRestore(p *RestorePlan) string {
	if len(p.Later) > 0 {
		return fmt.Sprintf("receipt %d has nothing to restore: %s", p.Receipt.ID, LaterText(p))
	}
	if len(p.Done) > 0 {
		s := fmt.Sprintf("receipt %d was already restored by %s (%s): nothing was sent again", p.Receipt.ID, receiptList(p.DoneBy), plural.Count(len(p.Done), "pair"))
		if rs := p.Receipt.Restored; rs.Again > 0 {
			s += fmt.Sprintf("; %d of them were deleted again since, by %s: restoring that brings them back", rs.Again, receiptList(rs.AgainBy))
		}
		return s
	}
	return fmt.Sprintf("receipt %d deleted no matters: there is nothing to restore", p.Receipt.ID)
}

func receiptList(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	if len(parts) == 1 {
		return "receipt " + parts[0]
	}
	return "receipts " + strings.Join(parts, ", ")
}

func lineRanges(outs []Outcome) string {
	lines := make([]int, len(outs))
	for i, o := range outs {
		lines[i] = o.Line
	}
	return LineRanges(lines)
}

func counts(outs []Outcome) map[Result]int {
	out := map[Result]int{}
	for _, o := range outs {
		out[o.Result]++
	}
	return out
}
