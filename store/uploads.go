package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrLeased is returned (wrapped) when another live process holds a batch.
var ErrLeased = errors.New("another vaultdeck process is working on this upload batch")

// File states in the upload journal.
const (
	FilePending  = "pending"  // in a batch whose outcome is not known yet
	FileUploaded = "uploaded" // the service returned (or listed) its file ID
	FileSkipped  = "skipped"  // mode skip and a file of that name existed
	FileRefused  = "refused"  // never sent: too large, unreadable, vanished, changed
	FileFailed   = "failed"   // the service refused the request that carried it
	FileReplaced = "replaced" // re-uploaded later (R); the newer row tracks it
)

// UploadRun is one upload command: what and where.
type UploadRun struct {
	ID        int64
	Profile   string
	ProjectID string
	Mode      string
	CreatedAt time.Time
}

// JournalFile is one file row of the journal.
type JournalFile struct {
	ID          int64 // row id
	RunID       int64
	BatchID     int64 // 0: refused before any batch
	Local       string
	Path        string // file_paths value
	Name        string
	Size        int64
	ContentHash string // algorithm-prefixed, e.g. "crc32c:1a2b3c4d"
	State       string
	FileID      string
	Reason      string
	Status      string    // last known processing status (lower case)
	UploadedAt  time.Time // server upload time when known, else the request's
	ProjectID   string    // of the run (filled by queries that join it)
}

// JournalBatch is one request of a run with its files.
type JournalBatch struct {
	ID      int64
	Run     UploadRun
	BeganAt time.Time
	Done    bool
	Error   string
	Files   []JournalFile
}

// Lease says who works on a batch and until when; Steal decides whether a
// lease held by someone else may be taken (its holder is dead).
type Lease struct {
	Owner string
	Until time.Time
	Steal func(holder string) bool
}

// CreateRun records a new run and returns its id.
func (s *Store) CreateRun(r UploadRun) (int64, error) {
	if r.Profile == "" || r.ProjectID == "" {
		return 0, errors.New("an upload run needs a profile and a project")
	}
	res, err := s.db.Exec(`INSERT INTO upload_runs (profile, project_id, mode, created_at) VALUES (?, ?, ?, ?)`,
		r.Profile, r.ProjectID, r.Mode, s.now().UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("the upload could not be recorded: %w", err)
	}
	return res.LastInsertId()
}

// RecordRefused notes a file of a run that will not be sent, and why.
func (s *Store) RecordRefused(runID int64, local, name, reason string) error {
	_, err := s.db.Exec(`INSERT INTO upload_files (run_id, local_path, file_path, name, size, state, reason) VALUES (?, ?, '', ?, 0, 'refused', ?)`,
		runID, local, name, reason)
	if err != nil {
		return fmt.Errorf("a refused file could not be recorded: %w", err)
	}
	return nil
}

// RecordBatch records a batch of a run and its files, leased to the
// caller, not yet sent (began_at 0). Recording every batch of a run up front
// is what lets a resume finish a run that stopped before its last batch. It
// returns the batch with row ids filled in, in the order given.
func (s *Store) RecordBatch(runID int64, files []JournalFile, l Lease) (JournalBatch, error) {
	b := JournalBatch{Files: append([]JournalFile(nil), files...)}
	err := s.inTx(func(tx *sql.Tx) error {
		res, err := tx.Exec(`INSERT INTO upload_batches (run_id, began_at, lease_owner, lease_until) VALUES (?, 0, ?, ?)`,
			runID, l.Owner, l.Until.UnixMilli())
		if err != nil {
			return err
		}
		if b.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		for i := range b.Files {
			f := &b.Files[i]
			res, err := tx.Exec(`INSERT INTO upload_files (run_id, batch_id, local_path, file_path, name, size, content_hash, state) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending')`,
				runID, b.ID, f.Local, f.Path, f.Name, f.Size, f.ContentHash)
			if err != nil {
				return err
			}
			f.ID, _ = res.LastInsertId()
			f.RunID, f.BatchID, f.State = runID, b.ID, FilePending
		}
		return tx.QueryRow(`SELECT id, profile, project_id, mode, created_at FROM upload_runs WHERE id = ?`, runID).Scan(
			&b.Run.ID, &b.Run.Profile, &b.Run.ProjectID, &b.Run.Mode, msTime{&b.Run.CreatedAt})
	})
	if err != nil {
		return JournalBatch{}, fmt.Errorf("the upload batch could not be recorded: %w", err)
	}
	return b, nil
}

// StartBatch records, in one transaction and just before the request is
// sent, when it began and each file's measured size and content hash, and
// refuses (with their reason) the files that could not be read. Only the
// lease holder may start a batch. A batch that began before keeps its first
// time, which is what a later reconciliation compares against.
func (s *Store) StartBatch(batchID int64, owner string, began time.Time, files []JournalFile) error {
	return s.inTx(func(tx *sql.Tx) error {
		if err := holdsLease(tx, batchID, owner); err != nil {
			return err
		}
		for _, f := range files {
			if _, err := tx.Exec(`UPDATE upload_files SET size = ?, content_hash = ?, state = ?, reason = ? WHERE id = ? AND batch_id = ?`,
				f.Size, f.ContentHash, f.State, f.Reason, f.ID, batchID); err != nil {
				return err
			}
		}
		_, err := tx.Exec(`UPDATE upload_batches SET began_at = ? WHERE id = ? AND began_at = 0`, began.UnixMilli(), batchID)
		return err
	})
}

// FileOutcome is what became of one file row.
type FileOutcome struct {
	ID         int64 // row id
	State      string
	FileID     string
	Reason     string
	UploadedAt time.Time // zero: keep the batch's time
}

// CompleteBatch writes the outcome of every file of a batch and closes it,
// in one transaction, provided owner still holds its lease. A file left out
// of outcomes stays pending (the batch stays open) so a later resume
// re-sends it.
func (s *Store) CompleteBatch(batchID int64, owner string, outcomes []FileOutcome, batchErr string) error {
	return s.inTx(func(tx *sql.Tx) error {
		if err := holdsLease(tx, batchID, owner); err != nil {
			return err
		}
		now := s.now().UnixMilli()
		for _, o := range outcomes {
			at := o.UploadedAt.UnixMilli()
			if o.UploadedAt.IsZero() {
				at = now
			}
			if _, err := tx.Exec(`UPDATE upload_files SET state = ?, file_id = ?, reason = ?, uploaded_at = ? WHERE id = ? AND batch_id = ?`,
				o.State, o.FileID, o.Reason, at, o.ID, batchID); err != nil {
				return err
			}
		}
		var pending int
		if err := tx.QueryRow(`SELECT count(*) FROM upload_files WHERE batch_id = ? AND state = 'pending'`, batchID).Scan(&pending); err != nil {
			return err
		}
		done := sql.NullInt64{Int64: now, Valid: pending == 0}
		_, err := tx.Exec(`UPDATE upload_batches SET done_at = ?, error = ?, lease_owner = '', lease_until = 0 WHERE id = ?`, done, batchErr, batchID)
		return err
	})
}

// holdsLease fails (wrapping ErrLeased) unless owner holds the batch's lease.
func holdsLease(tx *sql.Tx, batchID int64, owner string) error {
	var holder string
	if err := tx.QueryRow(`SELECT lease_owner FROM upload_batches WHERE id = ?`, batchID).Scan(&holder); err != nil {
		return fmt.Errorf("upload batch %d: %w", batchID, notFound(err))
	}
	if holder != owner {
		return fmt.Errorf("upload batch %d: %w", batchID, ErrLeased)
	}
	return nil
}

// ClaimBatch takes the lease of an unfinished batch for owner until l.Until.
// A lease held by another owner is taken only when it has expired or
// l.Steal says its holder is gone; otherwise the error wraps ErrLeased.
func (s *Store) ClaimBatch(batchID int64, l Lease) error {
	return s.inTx(func(tx *sql.Tx) error {
		var holder string
		var until int64
		var done sql.NullInt64
		if err := tx.QueryRow(`SELECT lease_owner, lease_until, done_at FROM upload_batches WHERE id = ?`, batchID).Scan(&holder, &until, &done); err != nil {
			return fmt.Errorf("upload batch %d: %w", batchID, notFound(err))
		}
		if done.Valid {
			return fmt.Errorf("upload batch %d is already complete", batchID)
		}
		free := holder == "" || holder == l.Owner || until < s.now().UnixMilli() || (l.Steal != nil && l.Steal(holder))
		if !free {
			return fmt.Errorf("upload batch %d: %w", batchID, ErrLeased)
		}
		_, err := tx.Exec(`UPDATE upload_batches SET lease_owner = ?, lease_until = ? WHERE id = ?`, l.Owner, l.Until.UnixMilli(), batchID)
		return err
	})
}

// RenewLeases extends every lease owner holds; a long request keeps its
// batch while it runs.
func (s *Store) RenewLeases(owner string, until time.Time) error {
	_, err := s.db.Exec(`UPDATE upload_batches SET lease_until = ? WHERE lease_owner = ?`, until.UnixMilli(), owner)
	return err
}

// ReleaseBatch gives a batch's lease back without completing it (the
// request's outcome is unknown; a resume will reconcile).
func (s *Store) ReleaseBatch(batchID int64, owner, batchErr string) error {
	_, err := s.db.Exec(`UPDATE upload_batches SET lease_owner = '', lease_until = 0, error = ? WHERE id = ? AND lease_owner = ?`, batchErr, batchID, owner)
	return err
}

// UnfinishedBatches lists the open batches of a profile's runs, oldest
// first, with their files.
func (s *Store) UnfinishedBatches(profile string) ([]JournalBatch, error) {
	rows, err := s.queryJournal(`
SELECT b.id, b.began_at, b.error, r.id, r.profile, r.project_id, r.mode, r.created_at
FROM upload_batches b JOIN upload_runs r ON r.id = b.run_id
WHERE r.profile = ? AND b.done_at IS NULL ORDER BY b.id`, profile)
	if err != nil {
		return nil, err
	}
	var out []JournalBatch
	for rows.Next() {
		var b JournalBatch
		if err := rows.Scan(&b.ID, msTime{&b.BeganAt}, &b.Error, &b.Run.ID, &b.Run.Profile, &b.Run.ProjectID, &b.Run.Mode, msTime{&b.Run.CreatedAt}); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		fs, err := s.journalFiles(`WHERE f.batch_id = ? ORDER BY f.id`, out[i].ID)
		if err != nil {
			return nil, err
		}
		out[i].Files = fs
	}
	return out, nil
}

// queryJournal runs a read of the upload journal; its error says so.
func (s *Store) queryJournal(query string, args ...any) (*sql.Rows, error) {
	rows, err := s.db.Query(query, args...)
	if err != nil {
		return nil, fmt.Errorf("the upload journal could not be read: %w", err)
	}
	return rows, nil
}

const fileColumns = `f.id, f.run_id, coalesce(f.batch_id, 0), f.local_path, f.file_path, f.name, f.size, f.content_hash,
f.state, f.file_id, f.reason, f.status, f.uploaded_at, r.project_id`

func (s *Store) journalFiles(where string, args ...any) ([]JournalFile, error) {
	rows, err := s.queryJournal(`SELECT `+fileColumns+` FROM upload_files f JOIN upload_runs r ON r.id = f.run_id `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []JournalFile
	for rows.Next() {
		var f JournalFile
		if err := rows.Scan(&f.ID, &f.RunID, &f.BatchID, &f.Local, &f.Path, &f.Name, &f.Size, &f.ContentHash,
			&f.State, &f.FileID, &f.Reason, &f.Status, msTime{&f.UploadedAt}, &f.ProjectID); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// RunFiles returns every file row of a run, in order.
func (s *Store) RunFiles(runID int64) ([]JournalFile, error) {
	return s.journalFiles(`WHERE f.run_id = ? ORDER BY f.id`, runID)
}

// TrackedFiles returns a profile's uploaded files whose processing is not
// known to be over (not ready, not missing), oldest first: what the File
// status view keeps watching across restarts.
func (s *Store) TrackedFiles(profile string) ([]JournalFile, error) {
	return s.journalFiles(`WHERE r.profile = ? AND f.state = 'uploaded'
AND f.status NOT IN ('ready_to_query', 'ready_to_review', 'not_found') ORDER BY f.id`, profile)
}

// FilesByID returns the journal rows (state uploaded) of the given file IDs.
func (s *Store) FilesByID(profile string, ids []string) ([]JournalFile, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := []any{profile}
	for _, id := range ids {
		args = append(args, strings.ToLower(id))
	}
	return s.journalFiles(`WHERE r.profile = ? AND f.state = 'uploaded' AND lower(f.file_id) IN (?`+strings.Repeat(", ?", len(ids)-1)+`) ORDER BY f.id`, args...)
}

// SetFileStatuses records the last known processing status of file IDs
// (lower case; "not_found" for missing).
func (s *Store) SetFileStatuses(status map[string]string) error {
	return s.inTx(func(tx *sql.Tx) error {
		for id, st := range status {
			if _, err := tx.Exec(`UPDATE upload_files SET status = ? WHERE lower(file_id) = ? AND state = 'uploaded'`, strings.ToLower(st), strings.ToLower(id)); err != nil {
				return err
			}
		}
		return nil
	})
}

// MarkReplaced retires the rows of file IDs that a later upload replaced.
func (s *Store) MarkReplaced(ids []string) error {
	return s.inTx(func(tx *sql.Tx) error {
		for _, id := range ids {
			if _, err := tx.Exec(`UPDATE upload_files SET state = 'replaced' WHERE lower(file_id) = ? AND state = 'uploaded'`, strings.ToLower(id)); err != nil {
				return err
			}
		}
		return nil
	})
}

// RunSummary is one run with counts per file state.
type RunSummary struct {
	UploadRun
	Files, Bytes                                int64
	Uploaded, Skipped, Refused, Failed, Pending int64
	OpenBatches                                 int64
}

// Finished reports whether nothing of the run is left to send or reconcile.
func (r RunSummary) Finished() bool { return r.Pending == 0 && r.OpenBatches == 0 }

// UploadRuns lists a profile's runs, newest first.
func (s *Store) UploadRuns(profile string) ([]RunSummary, error) {
	rows, err := s.queryJournal(`
SELECT r.id, r.profile, r.project_id, r.mode, r.created_at,
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id),
	(SELECT coalesce(sum(size), 0) FROM upload_files f WHERE f.run_id = r.id),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state IN ('uploaded', 'replaced')),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state = 'skipped'),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state = 'refused'),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state = 'failed'),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state = 'pending'),
	(SELECT count(*) FROM upload_batches b WHERE b.run_id = r.id AND b.done_at IS NULL)
FROM upload_runs r WHERE r.profile = ? ORDER BY r.id DESC`, profile)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RunSummary
	for rows.Next() {
		var r RunSummary
		if err := rows.Scan(&r.ID, &r.Profile, &r.ProjectID, &r.Mode, msTime{&r.CreatedAt}, &r.Files, &r.Bytes,
			&r.Uploaded, &r.Skipped, &r.Refused, &r.Failed, &r.Pending, &r.OpenBatches); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// msTime scans unix milliseconds into a time.Time (zero stays zero).
type msTime struct{ t *time.Time }

func (m msTime) Scan(v any) error {
	n, ok := v.(int64)
	if !ok {
		return fmt.Errorf("expected unix milliseconds, got %T", v)
	}
	if n == 0 {
		*m.t = time.Time{}
	} else {
		*m.t = time.UnixMilli(n)
	}
	return nil
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// ProjectFileIDs returns every file ID the profile's journal holds for a
// project.
func (s *Store) ProjectFileIDs(profile, projectID string) ([]string, error) {
	rows, err := s.queryJournal(`SELECT f.file_id FROM upload_files f JOIN upload_runs r ON r.id = f.run_id
WHERE r.profile = ? AND r.project_id = ? AND f.file_id != ''`, profile, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
