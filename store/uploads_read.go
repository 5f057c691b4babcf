// This file reads the upload journal (open batches, files, runs with their
// counts) and keeps the processing status of uploaded files in it. Writing
// runs and batches under their leases is uploads.go's job.

package store

import (
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// UnfinishedBatches lists the open batches of a profile's runs, oldest
// first, with their files.
func (s *Store) UnfinishedBatches(profile string) ([]JournalBatch, error) {
	rows, err := s.queryJournal(`
SELECT b.id, b.began_at, b.error, r.id, r.profile, r.project_id, r.mode, r.created_at, r.actor_os_user, r.actor_key
FROM upload_batches b JOIN upload_runs r ON r.id = b.run_id
WHERE r.profile = ? AND b.done_at IS NULL ORDER BY b.id`, profile)
	if err != nil {
		return nil, err
	}
	var out []JournalBatch
	for rows.Next() {
		var b JournalBatch
		if err := rows.Scan(&b.ID, msTime{&b.BeganAt}, &b.Error, &b.Run.ID, &b.Run.Profile, &b.Run.ProjectID, &b.Run.Mode, msTime{&b.Run.CreatedAt}, &b.Run.ActorOSUser, &b.Run.ActorKey); err != nil {
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
f.state, f.file_id, f.reason, f.status, f.uploaded_at, r.project_id, f.dev, f.ino, f.mtime_ns, f.service_name, f.deleted_at`

func (s *Store) journalFiles(where string, args ...any) ([]JournalFile, error) {
	rows, err := s.queryJournal(`SELECT `+fileColumns+` FROM upload_files f JOIN upload_runs r ON r.id = f.run_id `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []JournalFile
	for rows.Next() {
		var f JournalFile
		var dev, ino int64
		if err := rows.Scan(&f.ID, &f.RunID, &f.BatchID, &f.Local, &f.Path, &f.Name, &f.Size, &f.ContentHash,
			&f.State, &f.FileID, &f.Reason, &f.Status, msTime{&f.UploadedAt}, &f.ProjectID,
			&dev, &ino, &f.Planned.ModNs, &f.ServiceName, msTime{&f.DeletedAt}); err != nil {
			return nil, err
		}
		// The planned size is the row's size: StartBatch overwrites it with
		// the size measured then, which must be the same to be sent.
		f.Planned.Dev, f.Planned.Ino, f.Planned.Size = uint64(dev), uint64(ino), f.Size
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
	return s.journalFiles(`WHERE r.profile = ? AND f.state = 'uploaded' AND f.deleted_at = 0
AND f.status NOT IN ('ready_to_query', 'ready_to_review', 'not_found') ORDER BY f.id`, profile)
}

// UnprovenFiles returns a profile's files whose arrival a resume could
// neither prove nor rule out (FileUnproven), oldest first. Their batches are
// closed, so UnfinishedBatches no longer lists them; they still count as
// not done until the user has checked them.
func (s *Store) UnprovenFiles(profile string) ([]JournalFile, error) {
	return s.journalFiles(`WHERE r.profile = ? AND f.state = 'unproven' ORDER BY f.id`, profile)
}

// UnfinishedFiles returns every file of a profile's runs, whatever the
// project, that is not known to be queryable: not sent yet, its request
// refused, unproven, or uploaded and not ready (never polled, processing,
// failed, or missing from the service), oldest first. Files refused before
// sending (too large, unreadable) are not among them: they were named when
// refused and were never the service's. Nor are files a later upload of
// the same name superseded (the service's deleted_at): they are replaced,
// not processing.
func (s *Store) UnfinishedFiles(profile string) ([]JournalFile, error) {
	return s.journalFiles(`WHERE r.profile = ? AND (f.state IN ('pending', 'failed', 'unproven')
OR (f.state = 'uploaded' AND f.deleted_at = 0 AND f.status NOT IN ('ready_to_query', 'ready_to_review'))) ORDER BY f.id`, profile)
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

// FileDetailNote is what one file detail of the service says of a journaled
// file: its processing status (lower case; "not_found" for a missing one),
// its name there, and when it was superseded (zero: live).
type FileDetailNote struct {
	FileID, Status, Name string
	DeletedAt            time.Time
}

// SetFileDetails records what the service's file details said of journaled
// files, in one transaction: the status as SetFileStatuses does, and the
// name and deleted_at when the detail carried them (a not_found answer
// leaves both as they were).
func (s *Store) SetFileDetails(notes []FileDetailNote) error {
	err := s.inTx(func(tx *sql.Tx) error {
		for _, n := range notes {
			var deleted int64
			if !n.DeletedAt.IsZero() {
				deleted = n.DeletedAt.UnixMilli()
			}
			if _, err := tx.Exec(`UPDATE upload_files SET status = ?,
	service_name = CASE WHEN ? = '' THEN service_name WHEN ? = name THEN '' ELSE ? END,
	deleted_at = CASE WHEN ? = 'not_found' THEN deleted_at ELSE ? END
WHERE lower(file_id) = ? AND state = 'uploaded'`,
				strings.ToLower(n.Status), n.Name, n.Name, n.Name, strings.ToLower(n.Status), deleted, strings.ToLower(n.FileID)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("what the service said of uploaded files could not be recorded in the upload journal: %w", err)
	}
	return nil
}

// Namesakes returns the journal's live uploaded files (any profile) of a
// project that carry name: a re-upload with mode replace of another file of
// that name would supersede them.
func (s *Store) Namesakes(projectID, name string) ([]JournalFile, error) {
	return s.journalFiles(`WHERE r.project_id = ? AND f.name = ? AND f.state = 'uploaded' AND f.deleted_at = 0 ORDER BY f.id`, projectID, name)
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
	Unproven                                    int64
	// Superseded: uploaded, then a later upload of the name replaced them
	// (deleted_at); not among Uploaded.
	Superseded  int64
	OpenBatches int64
}

// Finished reports whether nothing of the run is left to send or reconcile,
// and nothing of it is unproven.
func (r RunSummary) Finished() bool { return r.Pending == 0 && r.OpenBatches == 0 && r.Unproven == 0 }

// UploadRun is the profile's run id as UploadRuns sums it up; false when
// the profile has no such run (each caller says so in its own words).
func (s *Store) UploadRun(profile string, id int64) (RunSummary, bool, error) {
	runs, err := s.UploadRuns(profile)
	if err != nil {
		return RunSummary{}, false, err
	}
	for _, r := range runs {
		if r.ID == id {
			return r, true, nil
		}
	}
	return RunSummary{}, false, nil
}

// UploadRuns lists a profile's runs, newest first.
func (s *Store) UploadRuns(profile string) ([]RunSummary, error) {
	rows, err := s.queryJournal(`
SELECT r.id, r.profile, r.project_id, r.mode, r.created_at, r.actor_os_user, r.actor_key,
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id),
	(SELECT coalesce(sum(size), 0) FROM upload_files f WHERE f.run_id = r.id),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state IN ('uploaded', 'replaced') AND f.deleted_at = 0),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state = 'skipped'),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state = 'refused'),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state = 'failed'),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state = 'pending'),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state = 'unproven'),
	(SELECT count(*) FROM upload_files f WHERE f.run_id = r.id AND f.state = 'uploaded' AND f.deleted_at != 0),
	(SELECT count(*) FROM upload_batches b WHERE b.run_id = r.id AND b.done_at IS NULL)
FROM upload_runs r WHERE r.profile = ? ORDER BY r.id DESC`, profile)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RunSummary
	for rows.Next() {
		var r RunSummary
		if err := rows.Scan(&r.ID, &r.Profile, &r.ProjectID, &r.Mode, msTime{&r.CreatedAt}, &r.ActorOSUser, &r.ActorKey, &r.Files, &r.Bytes,
			&r.Uploaded, &r.Skipped, &r.Refused, &r.Failed, &r.Pending, &r.Unproven, &r.Superseded, &r.OpenBatches); err != nil {
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

// ProjectFileIDs returns every file ID the journal holds for a project,
// whatever the profile: file IDs are unique, and a file another profile of
// this machine (the same workspace under another name) uploaded is no more
// this profile's to adopt than a colleague's.
func (s *Store) ProjectFileIDs(projectID string) ([]string, error) {
	rows, err := s.queryJournal(`SELECT f.file_id FROM upload_files f JOIN upload_runs r ON r.id = f.run_id
WHERE r.project_id = ? AND f.file_id != ''`, projectID)
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

// CheckJournal is Check, plus SQLite's full integrity check of the journal's
// own tables. quick_check does not compare an index with its table, and a
// damaged index of open batches reads as a well-formed empty one: "nothing
// to resume", with a run of 80 files dropped. The journal's tables are
// small, so checking them fully costs milliseconds.
func (s *Store) CheckJournal() error {
	if err := s.Check(); err != nil {
		return err
	}
	for _, table := range []string{"upload_runs", "upload_batches", "upload_files"} {
		rows, err := s.db.Query(`PRAGMA integrity_check(` + table + `)`)
		if err != nil {
			return s.damaged(err.Error())
		}
		var problems []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				rows.Close()
				return s.damaged(err.Error())
			}
			if line != "ok" && len(problems) < 3 {
				problems = append(problems, line)
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return s.damaged(err.Error())
		}
		if len(problems) > 0 {
			return s.damaged(strings.Join(problems, "; "))
		}
	}
	return nil
}
