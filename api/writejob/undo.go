package writejob

import (
	"context"
	"fmt"

	"github.com/vaultdeck/vaultdeck/store"
)

// Receipt is a job as a receipt shows it: the record, every item with its
// outcome, and the jobs that undid it.
type Receipt struct {
	Job      store.WriteJob
	Items    []Item
	UndoneBy []int64
}

// ReadReceipt reads job id's receipt.
func ReadReceipt(st Journal, id int64) (*Receipt, error) {
	j, err := st.WriteJob(id)
	if err != nil {
		return nil, err
	}
	items, err := st.WriteJobItems(id)
	if err != nil {
		return nil, err
	}
	by, err := st.UndoneBy(id)
	if err != nil {
		return nil, err
	}
	return &Receipt{Job: j, Items: items, UndoneBy: by}, nil
}

// Sent is the span in which the job's requests went out and were
// answered: what its audit evidence is looked for in. ok is false when
// nothing was sent.
func (r *Receipt) Sent() (first, last store.WriteJobItem, ok bool) {
	for _, it := range r.Items {
		if it.SentAt.IsZero() {
			continue
		}
		if !ok || it.SentAt.Before(first.SentAt) {
			first = it
		}
		if !ok || it.SentAt.After(last.SentAt) || it.DoneAt.After(last.DoneAt) {
			last = it
		}
		ok = true
	}
	return first, last, ok
}

// PlanUndo plans the undo of job id: what its done items changed, put
// back, and the items the kind refuses by name. A job still in flight or
// already undone is refused whole: its receipt is not the last word.
func PlanUndo(ctx context.Context, st Journal, k Kind, id int64) (*Receipt, *UndoPlan, error) {
	rc, err := ReadReceipt(st, id)
	if err != nil {
		return nil, nil, err
	}
	if rc.Job.Kind != k.Name() {
		return rc, nil, fmt.Errorf("write job %d is a %s job, not %s", id, rc.Job.Kind, k.Name())
	}
	var done []Item
	for _, it := range rc.Items {
		switch it.State {
		case InFlight, Unknown:
			return rc, nil, fmt.Errorf("write job %d: the outcome of some of its items is not known; resume it first", id)
		case Done:
			done = append(done, it)
		}
	}
	if len(rc.UndoneBy) > 0 {
		return rc, nil, fmt.Errorf("write job %d was already undone by job %d", id, rc.UndoneBy[len(rc.UndoneBy)-1])
	}
	if len(done) == 0 {
		return rc, nil, fmt.Errorf("write job %d changed nothing: there is nothing to undo", id)
	}
	up, err := k.Undo(ctx, rc.Job, done)
	if err != nil {
		return rc, nil, err
	}
	return rc, up, nil
}
