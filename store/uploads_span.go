package store

import (
	"fmt"
	"time"
)

// RunSpan is when a run's requests went out: the first batch sent and the
// last one answered (or sent, while unanswered). ok is false when none was
// sent. Evidence of a run in the audit log is sought inside it.
func (s *Store) RunSpan(runID int64) (first, last time.Time, ok bool, err error) {
	var lo, hi, answered int64
	err = s.db.QueryRow(`SELECT coalesce(min(began_at), 0), coalesce(max(began_at), 0), coalesce(max(done_at), 0)
FROM upload_batches WHERE run_id = ? AND began_at > 0`, runID).Scan(&lo, &hi, &answered)
	if err != nil {
		return first, last, false, fmt.Errorf("the upload journal could not be read: %w", err)
	}
	if lo == 0 {
		return first, last, false, nil
	}
	return time.UnixMilli(lo).UTC(), time.UnixMilli(max(hi, answered)).UTC(), true, nil
}
