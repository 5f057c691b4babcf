// This file keeps a restore from undoing another run's deletion. Judge
// reads a pair deleted after this run's request went out as this run's
// deletion; but when this run was killed after writing the pair in flight
// and before sending it, and the file was re-run, the deletion the
// listing shows is the re-run's. This machine's receipts say so: a later
// deletion that sent the same pair answers for it.

package matters

import (
	"fmt"
	"slices"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// later is what a later deletion receipt says of one in-flight pair.
type later struct {
	receipt int64
	deleted bool // it answered "deleted"; otherwise its answer is unknown too
}

// takeSentLater moves out of p.InFlight the pairs another deletion receipt
// sent after this run's request went out, into p.Later: left alone when
// that receipt answered "deleted" (its restore brings them back), unproven
// when its answer is unknown as well (the listing cannot tell whose
// deletion it shows). A pair without a send time is left to Judge.
func takeSentLater(st Receipts, p *RestorePlan) error {
	at := make(map[pairKey]int, len(p.InFlight))
	for i, f := range p.InFlight {
		if !f.SentAt.IsZero() {
			at[key(f.ClientID, f.MatterID)] = i
		}
	}
	if len(at) == 0 {
		return nil
	}
	all, err := st.Receipts()
	if err != nil {
		return err
	}
	found := map[int]later{}
	for _, r := range all {
		if r.Action != "delete" || r.ID == p.Receipt.ID {
			continue
		}
		err := st.ReceiptItems(r.ID, "", func(it store.ReceiptItem) error {
			i, ok := at[key(it.ClientID, it.MatterID)]
			sent := Result(it.Result) == ResultDeleted || Result(it.Result) == ResultInFlight || unknown(it)
			if !ok || !sent || !it.SentAt.After(p.InFlight[i].SentAt) {
				return nil
			}
			if prev, seen := found[i]; !seen || (!prev.deleted && Result(it.Result) == ResultDeleted) {
				found[i] = later{receipt: r.ID, deleted: Result(it.Result) == ResultDeleted}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if len(found) == 0 {
		return nil
	}
	keep := p.InFlight[:0]
	for i, f := range p.InFlight {
		l, ok := found[i]
		if !ok {
			keep = append(keep, f)
			continue
		}
		o := Outcome{Line: f.Line, ClientID: f.ClientID, MatterID: f.MatterID, Result: ResultLeftAlone, Code: CodeDeletedLater,
			Detail: fmt.Sprintf("deletion receipt %d deleted it after this run's request went out: not this run's deletion; "+
				"`vaultdeck matters restore --receipt %d` brings it back", l.receipt, l.receipt)}
		if !l.deleted {
			o.Result, o.Code = ResultUnproven, CodeUnproven
			o.Detail = fmt.Sprintf("deletion receipt %d sent it too, later, and its answer is unknown as well: the listing cannot "+
				"tell which run deleted it; nothing was sent: check it in the workspace", l.receipt)
		}
		p.Later = append(p.Later, o)
		if !slices.Contains(p.LaterBy, l.receipt) {
			p.LaterBy = append(p.LaterBy, l.receipt)
		}
	}
	slices.Sort(p.LaterBy)
	p.InFlight = keep
	return nil
}

// LaterText says what became of p.Later.
func LaterText(p *RestorePlan) string {
	verb := "were"
	if len(p.Later) == 1 {
		verb = "was"
	}
	return fmt.Sprintf("%s it sent without a recorded answer %s sent again later by deletion %s, which answers for them "+
		"(restore that one to bring them back)", plural.Count(len(p.Later), "pair"), verb, receiptList(p.LaterBy))
}
