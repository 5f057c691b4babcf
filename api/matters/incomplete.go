// This file words a receipt that could not be written in full (a full
// disk, a lost database): what the service did that the receipt does not
// hold, and what to do about it. The command line and the console show
// the same sentence, and both treat it as a failure (exit 3).

package matters

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// ReceiptError is a receipt that could not be started: nothing was sent.
type ReceiptError struct{ Err error }

func (e *ReceiptError) Error() string {
	return "the receipt could not be started, so nothing was sent: " + e.Err.Error()
}

func (e *ReceiptError) Unwrap() error { return e.Err }

// IsReceiptError says whether err is a receipt write failure.
func IsReceiptError(err error) bool {
	var re *ReceiptError
	return errors.As(err, &re)
}

// Incomplete says what receipt id lacks after a run whose report is rep
// and whose closing write failed with finishErr; "" when the receipt holds
// everything. It names each unrecorded request with its lines and what the
// service answered for them.
func Incomplete(id int64, rep *Report, finishErr error) string {
	if rep == nil || (len(rep.Unrecorded) == 0 && finishErr == nil) {
		return ""
	}
	var parts []string
	for _, u := range rep.Unrecorded {
		what := fmt.Sprintf("request %d (lines %s) was answered (%s)", u.Request, u.Lines, CountsText(u.Counts))
		if u.Request == 0 {
			what = fmt.Sprintf("the outcomes of lines %s, settled before any request (%s), are not on it", u.Lines, CountsText(u.Counts))
		} else {
			what += ", but the answer is not on it: it shows those lines in_flight"
		}
		parts = append(parts, what)
	}
	if finishErr != nil {
		unsent := 0
		for _, o := range rep.Outcomes {
			if o.Result == ResultNotSent && o.Request == 0 {
				unsent++
			}
		}
		end := "its end could not be written, so it stays \"running\""
		if unsent > 0 {
			end += fmt.Sprintf(" and lacks the %s never sent", plural.Count(unsent, "pair"))
		}
		parts = append(parts, end)
	}
	cause := finishErr
	if len(rep.Unrecorded) > 0 {
		cause = rep.Unrecorded[0].Err
	}
	return fmt.Sprintf("receipt %d is incomplete: %s (%s). The outcomes printed here are the only full record: keep them. "+
		"Once the database can be written again, `vaultdeck matters restore --receipt %d` checks in-flight lines against the service",
		id, strings.Join(parts, "; "), cause.Error(), id)
}
