package matters

// The fault walk's checker: after each step, what the simulator holds, what
// the receipts say (read through a fresh handle, as the next process
// would), and what the run reported must agree.

import (
	"fmt"

	"github.com/vaultdeck/vaultdeck/store"
)

// succeeded is the command line's exit 0 (ui/cli report): no error, no
// pair in error, not sent or unproven, and a receipt that holds it all.
func succeeded(id int64, rep *Report, err error) bool {
	return err == nil && rep != nil && rep.Err == nil && !rep.Errors() && Incomplete(id, rep, err) == ""
}

// read is receipt id and its items by line, through the checker's own
// handle (another process's view of the file).
func (w *world) read(id int64) (store.Receipt, map[int]store.ReceiptItem, error) {
	st := w.reader()
	rc, err := st.Receipt(id)
	if err != nil {
		return rc, nil, err
	}
	items := map[int]store.ReceiptItem{}
	err = st.ReceiptItems(id, "", func(it store.ReceiptItem) error { items[it.Line] = it; return nil })
	return rc, items, err
}

func (w *world) badf(what, format string, args ...any) {
	w.bad = append(w.bad, what+": "+fmt.Sprintf(format, args...))
}

// checkDelete: nothing deleted without a receipt that can undo it; the
// receipt and the report never claim what the service did not do; a
// pair still live is named as not done; success only when all is done
// and no write failed.
func (w *world) checkDelete(what string, f *faulty, finished bool, id int64, rep *Report, err error,
	before, after map[pairKey]rec, deleted map[pairKey]bool) {
	if f.rid == 0 {
		if len(deleted) > 0 {
			w.badf(what, "the service deleted %d matter(s), and no receipt was started", len(deleted))
		}
		if finished && err == nil {
			w.badf(what, "no receipt was started, yet the run reported no error")
		}
		return
	}
	rc, items, rerr := w.read(f.rid)
	if rerr != nil {
		w.badf(what, "receipt %d could not be read: %v", f.rid, rerr)
		return
	}
	for k := range deleted {
		it, ok := items[w.line[k]]
		if !ok || (Result(it.Result) != ResultDeleted && Result(it.Result) != ResultInFlight && !unknown(it)) {
			w.badf(what, "line %d was deleted by the service, but receipt %d holds it as %q: no restore can find it", w.line[k], f.rid, it.Result)
		}
	}
	for line, it := range items {
		k := key(it.ClientID, it.MatterID)
		switch Result(it.Result) {
		case ResultDeleted:
			if !deleted[k] {
				w.badf(what, "receipt %d says line %d deleted; the service did not delete it in this run", f.rid, line)
			}
		case ResultNotSent:
			if before[k] != after[k] {
				w.badf(what, "receipt %d says line %d not sent; the service changed it", f.rid, line)
			}
		}
	}
	if !finished {
		return // a crash: the receipt is all there is
	}
	if rep == nil {
		w.badf(what, "receipt %d was started, and the run ended without a report: %v", f.rid, err)
		return
	}
	if len(rep.Outcomes) != len(w.pairs) {
		w.badf(what, "the report has %d outcomes for %d pairs", len(rep.Outcomes), len(w.pairs))
		return
	}
	for i, o := range rep.Outcomes {
		k := key(o.ClientID, o.MatterID)
		switch {
		case o.Line != w.pairs[i].Line:
			w.badf(what, "outcome %d is line %d, want %d: not every pair exactly once, in order", i, o.Line, w.pairs[i].Line)
		case (o.Result == ResultDeleted || o.Result == ResultAlreadyAbsent) && after[k].live:
			w.badf(what, "the report says line %d %s; the service still lists it", o.Line, o.Result)
		case o.Result == ResultDeleted && !deleted[k]:
			w.badf(what, "the report says line %d deleted; the service did not delete it in this run", o.Line)
		case o.Result == ResultNotSent && before[k] != after[k]:
			w.badf(what, "the report says line %d not sent; the service changed it", o.Line)
		}
	}
	if !succeeded(id, rep, err) {
		return
	}
	if f.fired {
		w.badf(what, "a write of receipt %d failed, yet the run succeeded", f.rid)
	}
	if rc.Status != store.ReceiptComplete || len(items) != len(w.pairs) || rc.Counts[string(ResultInFlight)] > 0 {
		w.badf(what, "the run succeeded, and receipt %d is %s with %d of %d items (%v)", f.rid, rc.Status, len(items), len(w.pairs), rc.Counts)
	}
	if !w.clean {
		w.badf(what, "the run succeeded with pairs refused before sending")
	}
}

// checkRestore: a restore never makes a matter the deletion did not
// delete (no record more than at the start, nothing back that it did not
// delete), restores each line at most once, names what it left deleted,
// and succeeds only when all it deleted is back and no write failed. A
// fault-free restore must bring back everything the deletion deleted.
func (w *world) checkRestore(what string, rid int64, f *faulty, finished, faultFree bool, id int64, rep *Report, err error,
	before, after map[pairKey]rec) {
	undoes := w.deletedBy[rid]
	for k, r := range after {
		if r.n > w.start[k] {
			w.badf(what, "line %d has %d record(s), %d at the start: a restore created a matter", w.line[k], r.n, w.start[k])
		}
		if r.live && !before[k].live && !undoes[k] {
			w.badf(what, "line %d is back, and deletion %d did not delete it", w.line[k], rid)
		}
	}
	w.restoredOnce(what, rid)
	if !finished {
		return
	}
	ok := err == nil && (rep == nil || succeeded(id, rep, err))
	if ok && f.fired {
		w.badf(what, "a write failed, yet the restore succeeded")
	}
	byLine := map[int]Outcome{}
	if rep != nil {
		for _, o := range rep.Outcomes {
			byLine[o.Line] = o
		}
	}
	for k := range undoes {
		if after[k].live {
			continue
		}
		o, named := byLine[w.line[k]]
		done := o.Result == ResultRestored || o.Result == ResultUnchanged || o.Result == ResultAlreadyRestored
		switch {
		case ok:
			w.badf(what, "the restore succeeded, and line %d, which deletion %d deleted, is still deleted (%q)", w.line[k], rid, o.Result)
		case err == nil && (!named || done):
			w.badf(what, "line %d, which deletion %d deleted, is still deleted, and the restore does not name it as not done (%q)", w.line[k], rid, o.Result)
		case faultFree && o.Result != ResultUnproven:
			w.badf(what, "a restore without a fault left line %d, which deletion %d deleted, deleted: %s %s", w.line[k], rid, o.Result, o.Detail)
		}
	}
}

// restoredOnce: across every restore of deletion rid, a line is restored
// at most once (a second upsert of it answers unchanged).
func (w *world) restoredOnce(what string, rid int64) {
	st := w.reader()
	all, err := st.Receipts()
	if err != nil {
		w.badf(what, "the receipts could not be listed: %v", err)
		return
	}
	seen := map[int]int64{}
	for _, r := range all {
		if r.RestoreOf != rid {
			continue
		}
		err := st.ReceiptItems(r.ID, string(ResultRestored), func(it store.ReceiptItem) error {
			if by, twice := seen[it.Line]; twice {
				w.badf(what, "line %d restored by receipt %d and again by %d", it.Line, by, r.ID)
			}
			seen[it.Line] = r.ID
			return nil
		})
		if err != nil {
			w.badf(what, "restore %d could not be read: %v", r.ID, err)
		}
	}
}
