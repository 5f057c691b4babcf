// This file words what a receipt means now: its status with what the
// restores of a deletion did since, and what re-running its file would do
// today. Every view of a receipt (matters receipt, receipts, --json, the
// console) says these same sentences, so none can go on calling a re-run
// harmless after a restore brought the matters back.

package matters

import (
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// Status reads a receipt's status as a person needs it, with what the
// restores of a deletion did since. A receipt still "running" is either in
// progress in some vaultdeck or was interrupted (the process killed): the
// recorded count tells how far it got.
func Status(r store.Receipt) string {
	s := r.Status
	if s == store.ReceiptRunning {
		n := 0
		for _, c := range r.Counts {
			n += c
		}
		s = fmt.Sprintf("running or interrupted: %d of %s recorded", n, plural.Count(r.Pairs, "pair"))
	}
	if rs := r.Restored; len(rs.By) > 0 {
		s += "; " + restoredText(rs)
	}
	return s
}

// restoredText says what the restores of a deletion did: "restored by
// receipt 2 (3 pairs)", or partly so, naming what is not back.
func restoredText(rs store.Restored) string {
	by := receiptList(rs.By)
	if rs.Lines == 0 && rs.InFlight == 0 {
		return fmt.Sprintf("%s restored none of its pairs", by)
	}
	s := fmt.Sprintf("restored by %s (%s)", by, plural.Count(rs.Lines, "pair"))
	if rs.Again > 0 { // a later deletion took them again: say so, or the receipt reads as if they were back
		s += fmt.Sprintf("; deleted again by %s (%s)", receiptList(rs.AgainBy), plural.Count(rs.Again, "pair"))
	}
	if rs.Remaining == 0 && rs.InFlight == 0 {
		return s
	}
	var not []string
	if rs.InFlight > 0 {
		not = append(not, fmt.Sprintf("%s in flight, perhaps back", plural.Count(rs.InFlight, "pair")))
	}
	if rs.Remaining > 0 {
		not = append(not, fmt.Sprintf("%s it deleted not restored", plural.Count(rs.Remaining, "pair")))
	}
	return "partly " + s + ": " + strings.Join(not, ", ")
}

// Rerun says what running a deletion's file again would do now; "" for a
// restore. Deleting is repeatable at the service (a pair already deleted
// answers already_absent), but a repeat deletes whatever of the file exists
// at that moment: what a restore brought back, and what a colleague
// re-created since. Only this machine's restores are known here.
func Rerun(r store.Receipt) string {
	if r.Action != "delete" {
		return ""
	}
	name := r.FileName
	if name == "" {
		name = "the file"
	}
	rs := r.Restored
	unfinished := r.Status != store.ReceiptComplete
	back := rs.Lines - rs.Again // restored, and not deleted again since
	if back == 0 && rs.InFlight == 0 {
		if unfinished {
			return fmt.Sprintf("re-running %s now would delete the pairs this run never sent or never recorded, "+
				"and any of its pairs re-created since (by a colleague too); those it deleted answer already_absent", name)
		}
		return fmt.Sprintf("re-running %s now would delete only those of its pairs re-created since this run "+
			"(by a colleague, or a restore on another machine); those it deleted answer already_absent", name)
	}
	var again []string
	if back > 0 {
		again = append(again, fmt.Sprintf("the %s %s restored", plural.Count(back, "matter"), receiptList(rs.By)))
	}
	if rs.InFlight > 0 {
		again = append(again, fmt.Sprintf("the %s whose restore is in flight, if it went through", plural.Count(rs.InFlight, "pair")))
	}
	also := "any other pair of it re-created since (by a colleague too)"
	if unfinished {
		also = "the pairs this run never recorded, and " + also
	}
	return fmt.Sprintf("re-running %s now would delete again %s; also %s", name, strings.Join(again, " and "), also)
}

// Earlier is what this machine's earlier deletions of the same file (the
// same SHA-256) mean for running it now: a line for each whose pairs a
// restore brought back, or may have, since ("receipt 1 deleted this
// file's pairs: " and its Rerun sentence), oldest first. The preview of a
// re-run says them, so the warning is where the person decides, not only
// in a receipt nobody reads before re-running a file.
func Earlier(st Receipts, sha string) ([]string, error) {
	if sha == "" {
		return nil, nil
	}
	all, err := st.Receipts()
	if err != nil {
		return nil, err
	}
	var out []string
	for i := len(all) - 1; i >= 0; i-- { // Receipts lists the newest first
		r := all[i]
		rs := r.Restored
		if r.Action != "delete" || r.FileSHA256 != sha || (rs.Lines-rs.Again == 0 && rs.InFlight == 0) {
			continue
		}
		out = append(out, fmt.Sprintf("receipt %d deleted this file's pairs: %s", r.ID, Rerun(r)))
	}
	return out, nil
}
