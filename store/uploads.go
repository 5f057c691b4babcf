// This file writes the upload journal: runs, batches recorded before their
// request is sent and completed after it, and the leases that keep two
// processes off one batch. Reading it is uploads_read.go's job.

package store

import (
	"database/sql"
	"errors"
	"fmt"
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
	// FileUnproven: its request's answer was lost and the project's listing
	// could neither prove nor rule out its arrival, and the mode (keep) made
	// a re-send unsafe. Named to the user; never counted as uploaded.
	FileUnproven = "unproven"
)

// UploadRun is one upload command: what and where.
type UploadRun struct {
	ID        int64
	Profile   string
	ProjectID string
	Mode      string
	CreatedAt time.Time
	// ActorOSUser, ActorKey: who ran it beyond the token's owner (the
	// local account, a serve session's key); "" for runs before schema 19.
	ActorOSUser, ActorKey string
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
	// Planned is the file's identity when the upload was planned (zero for
	// rows journaled before it was recorded): a batch sends the file only
	// while it is still this file.
	Planned FileIdentity
	// What the service's file detail said of it, once polled: its name
	// there ("" when the same as Name; keep renames a duplicate) and when a
	// later upload of the same name superseded it (deleted_at).
	ServiceName string
	DeletedAt   time.Time
}

// FileIdentity is what tells a local file from another put in its place:
// device and inode (a link, a copy or a rename onto it changes them), size
// and modification time (a rewrite in place changes one of them).
type FileIdentity struct {
	Dev, Ino uint64
	Size     int64
	ModNs    int64 // unix nanoseconds
}

// Known reports whether the identity was recorded.
func (id FileIdentity) Known() bool { return id.Ino != 0 || id.ModNs != 0 }

// JournalBatch is one request of a run with its files.
type JournalBatch struct {
	ID      int64
	Run     UploadRun
	BeganAt time.Time
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
	var id int64
	err := s.inTx(func(tx *sql.Tx) error {
		var err error
		id, err = insertRun(tx, r, s.now())
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("the upload could not be recorded: %w", err)
	}
	return id, nil
}

func insertRun(tx *sql.Tx, r UploadRun, now time.Time) (int64, error) {
	if r.Profile == "" || r.ProjectID == "" {
		return 0, errors.New("an upload run needs a profile and a project")
	}
	res, err := tx.Exec(`INSERT INTO upload_runs (profile, project_id, mode, created_at, actor_os_user, actor_key) VALUES (?, ?, ?, ?, ?, ?)`,
		r.Profile, r.ProjectID, r.Mode, now.UnixMilli(), r.ActorOSUser, r.ActorKey)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// RecordRun records a whole upload plan in one transaction: the run, the
// files refused before sending, and every batch with its files, leased to
// the caller and not yet sent. Either all of it is in the journal or none:
// a plan cut short by a full disk would otherwise look like a smaller plan
// that a resume then "finishes", with the rest of the files in no record.
func (s *Store) RecordRun(r UploadRun, refused []JournalFile, batches [][]JournalFile, l Lease) (int64, []JournalBatch, error) {
	var runID int64
	var out []JournalBatch
	err := s.inTx(func(tx *sql.Tx) error {
		var err error
		if runID, err = insertRun(tx, r, s.now()); err != nil {
			return err
		}
		for _, f := range refused {
			if _, err := tx.Exec(`INSERT INTO upload_files (run_id, local_path, file_path, name, size, state, reason) VALUES (?, ?, '', ?, 0, 'refused', ?)`,
				runID, f.Local, f.Name, f.Reason); err != nil {
				return err
			}
		}
		out = make([]JournalBatch, 0, len(batches))
		for _, files := range batches {
			b, err := insertBatch(tx, runID, files, l)
			if err != nil {
				return err
			}
			out = append(out, b)
		}
		return nil
	})
	if err != nil {
		return 0, nil, fmt.Errorf("the upload plan could not be recorded, so nothing was sent and no run was kept: %w", err)
	}
	return runID, out, nil
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

// RecordBatch records one batch of a run and its files, leased to the
// caller, not yet sent (began_at 0), and returns it with row ids filled in,
// in the order given. Uploads record their whole plan with RecordRun.
func (s *Store) RecordBatch(runID int64, files []JournalFile, l Lease) (JournalBatch, error) {
	var b JournalBatch
	err := s.inTx(func(tx *sql.Tx) error {
		var err error
		b, err = insertBatch(tx, runID, files, l)
		return err
	})
	if err != nil {
		return JournalBatch{}, fmt.Errorf("the upload batch could not be recorded: %w", err)
	}
	return b, nil
}

func insertBatch(tx *sql.Tx, runID int64, files []JournalFile, l Lease) (JournalBatch, error) {
	b := JournalBatch{Files: append([]JournalFile(nil), files...)}
	res, err := tx.Exec(`INSERT INTO upload_batches (run_id, began_at, lease_owner, lease_until) VALUES (?, 0, ?, ?)`,
		runID, l.Owner, l.Until.UnixMilli())
	if err != nil {
		return b, err
	}
	if b.ID, err = res.LastInsertId(); err != nil {
		return b, err
	}
	for i := range b.Files {
		f := &b.Files[i]
		res, err := tx.Exec(`INSERT INTO upload_files (run_id, batch_id, local_path, file_path, name, size, content_hash, state, dev, ino, mtime_ns) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
			runID, b.ID, f.Local, f.Path, f.Name, f.Size, f.ContentHash, int64(f.Planned.Dev), int64(f.Planned.Ino), f.Planned.ModNs)
		if err != nil {
			return b, err
		}
		f.ID, _ = res.LastInsertId()
		f.RunID, f.BatchID, f.State = runID, b.ID, FilePending
	}
	err = tx.QueryRow(`SELECT id, profile, project_id, mode, created_at, actor_os_user, actor_key FROM upload_runs WHERE id = ?`, runID).Scan(
		&b.Run.ID, &b.Run.Profile, &b.Run.ProjectID, &b.Run.Mode, msTime{&b.Run.CreatedAt}, &b.Run.ActorOSUser, &b.Run.ActorKey)
	return b, err
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
		free := holder == "" || holder == l.Owner || leaseLapsed(until, s.now(), l.Until) || (l.Steal != nil && l.Steal(holder))
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

// UnstartBatch releases a batch whose request was never sent, and forgets
// the start that owner recorded at began, so a resume sends it instead of
// reconciling it. A start recorded earlier (by another attempt, which may
// have reached the service) is kept.
func (s *Store) UnstartBatch(batchID int64, owner string, began time.Time) error {
	_, err := s.db.Exec(`UPDATE upload_batches SET lease_owner = '', lease_until = 0, error = '',
		began_at = CASE WHEN began_at = ? THEN 0 ELSE began_at END WHERE id = ? AND lease_owner = ?`,
		began.UnixMilli(), batchID, owner)
	return err
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
