// This file stops a run at its first failed journal write. The journal is
// what makes a resume safe: a request whose start is not recorded cannot be
// reconciled, and an answer not recorded is reconciled only by a resume. So
// an error of any journal write (a disk full, an I/O error, a lock another
// process held past the store's wait, a lease renewal) stops the run before
// its next request, and the run says what was sent and recorded, what was
// sent and not recorded, what was not sent, and what to run.

package upload

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// journalError is a journal write that failed.
type journalError struct {
	batch int64  // 0: not a batch's own write (a lease renewal)
	what  string // what could not be recorded: "the start of batch 3"
	sent  bool   // the batch's request went out; its answer is not recorded
	err   error
	also  string // a second failure it brought (a lease not given back)
	// moved: the database's files changed under the process (err is a
	// store.ErrChanged) before what was sent.
	moved bool
}

func (e *journalError) Error() string {
	if e.moved {
		return fmt.Sprintf("before %s, %v", e.what, e.err)
	}
	return fmt.Sprintf("%s could not be recorded in the local journal: %v%s", e.what, e.err, e.also)
}

// storeChanged is the store's own error inside err (a request's), so the
// stop line says what changed without the request's wording around it.
func storeChanged(err error) error {
	var ce *store.ChangedError
	if errors.As(err, &ce) {
		return ce
	}
	return err
}

func (e *journalError) Unwrap() error { return e.err }

// errHaltedUnsent: a request that waited its turn when the run halted was
// not sent (and the journal says so).
var errHaltedUnsent = errors.New("not sent: the run stopped at a journal error while the request waited its turn")

// halt records the run's first journal error and stops the requests that
// wait their turn; later errors are kept as lines, each once.
func (r *Runner) halt(e *journalError) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.halted == nil {
		r.halted = e
		if r.haltCancel != nil {
			r.haltCancel()
		}
		return
	}
	line := e.Error()
	if line == r.halted.Error() || slices.Contains(r.laterHalts, line) {
		return
	}
	r.laterHalts = append(r.laterHalts, line)
}

// haltedBy is the run's first journal error, or nil.
func (r *Runner) haltedBy() *journalError {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.halted
}

// asJournal returns err's journal error, if it is one.
func asJournal(err error) (*journalError, bool) {
	var je *journalError
	return je, errors.As(err, &je)
}

// ledger of a run's batches for the stop line.
type runLedger struct {
	recorded, unrecorded, unsent []int64
	unsentFiles                  int
}

func (l *runLedger) notSent(b store.JournalBatch) {
	l.unsent = append(l.unsent, b.ID)
	for _, f := range b.Files {
		if f.State == store.FilePending {
			l.unsentFiles++
		}
	}
}

// stopLine is the run's account after a journal error: what went out and
// is recorded, what went out unrecorded, what was not sent, and what to run.
func (l *runLedger) stopLine(e *journalError, later []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the upload stopped: %v.", e)
	if len(later) > 0 {
		fmt.Fprintf(&b, " Then: %s.", strings.Join(later, "; "))
	}
	if len(l.recorded) > 0 {
		fmt.Fprintf(&b, " Sent and recorded: %s.", batchList(l.recorded))
	}
	if len(l.unrecorded) > 0 {
		fmt.Fprintf(&b, " Sent, answer not recorded: %s (the files may have arrived).", batchList(l.unrecorded))
	}
	if len(l.unsent) > 0 {
		fmt.Fprintf(&b, " Not sent: %s (%s).", batchList(l.unsent), plural.Count(l.unsentFiles, "file"))
	}
	if len(l.unrecorded)+len(l.unsent) == 0 {
		b.WriteString(" Every batch was sent and recorded: nothing is left to resume, but the database could not be written; check the disk it is on.")
		return b.String()
	}
	if e.moved {
		b.WriteString(" Run `vaultdeck upload --resume`: it checks what arrived before it sends anything again.")
		return b.String()
	}
	b.WriteString(" Run `vaultdeck upload --resume` once the database can be written again (free disk space, or end the process that holds it): it checks what arrived before it sends anything again.")
	return b.String()
}

func batchList(ids []int64) string {
	word := "batch"
	if len(ids) > 1 {
		word = "batches"
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return word + " " + strings.Join(s, ", ")
}
