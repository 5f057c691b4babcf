package store

// The generic write job's journal (api/writejob; schema 16). A job is
// written whole with its items before anything is sent; each request's
// items go in_flight in one transaction before it goes, and its answers
// settle them in one transaction after. So a job's rows always say what
// may have reached the service, and a resume after kill -9 knows exactly
// which requests to check.

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// WriteJob is one write job: who ran it, against what, the plan as read.
type WriteJob struct {
	ID        int64
	Kind      string // the kind's name: "delete_file", "access"
	Profile   string
	Workspace string // the workspace id whoami gave
	BaseURL   string
	// Actor: who ran it. Email is whoami's, OSUser the local account,
	// Key the SSH key or certificate of a serve session (issue 45).
	ActorEmail, ActorOSUser, ActorKey string
	Plan                              string // the plan as the person read it
	UndoOf                            int64  // the job this undoes; 0 otherwise
	Status                            string // running, complete, stopped, canceled
	Note                              string
	CreatedAt, FinishedAt             time.Time
	Counts                            map[string]int // items by state
}

// WriteJobItem is one change: its target, action and parameters, the
// request (Send) that carries it, and what the service answered.
type WriteJobItem struct {
	Seq    int    // 1-based order in the job
	Send   int    // the request carrying it (1-based); several items may share one
	Target string // what the service names it by (a file ID; project|email)
	Label  string // what a person calls it (a file name)
	Action string
	Params string // the kind's own parameters (JSON)
	State  string
	// Outcome is the kind's word for the answer ("deleted", "gone",
	// "added"); Previous what the service said was there before.
	Outcome, Previous, Detail string
	Attempts                  int
	SentAt, DoneAt            time.Time
}

// Write job item states.
const (
	ItemPlanned  = "planned"
	ItemInFlight = "in_flight"
	ItemDone     = "done"
	ItemFailed   = "failed"
	ItemUnknown  = "unknown"
)

// Write job statuses.
const (
	JobRunning  = "running"
	JobComplete = "complete"
	JobStopped  = "stopped"
	JobCanceled = "canceled"
)

// StartWriteJob records a job and all its items, planned, in one
// transaction, and returns its id. Nothing is sent before it returns.
func (s *Store) StartWriteJob(j WriteJob, items []WriteJobItem) (int64, error) {
	if j.Kind == "" || j.BaseURL == "" {
		return 0, fmt.Errorf("a write job needs a kind and a base URL")
	}
	var id int64
	err := s.inTx(func(tx *sql.Tx) error {
		var undo any
		if j.UndoOf != 0 {
			undo = j.UndoOf
		}
		res, err := tx.Exec(`
INSERT INTO write_jobs (kind, profile, workspace_id, base_url, actor_email, actor_os_user, actor_key, plan, undo_of, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, j.Kind, j.Profile, j.Workspace, j.BaseURL, j.ActorEmail, j.ActorOSUser, j.ActorKey,
			j.Plan, undo, s.now().UnixMilli())
		if err != nil {
			return fmt.Errorf("the write job could not be recorded: %w", err)
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		st, err := tx.Prepare(`INSERT INTO write_job_items (job_id, seq, send_no, target, label, action, params) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("the write job could not be recorded: %w", err)
		}
		defer st.Close()
		for _, it := range items {
			if _, err := st.Exec(id, it.Seq, it.Send, it.Target, it.Label, it.Action, it.Params); err != nil {
				return fmt.Errorf("the write job could not be recorded (item %d): %w", it.Seq, err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// SendingWriteJobItems puts the planned items seqs of job id in flight, in
// one transaction, before their request goes: an item not planned (already
// sent by another process, or settled) fails the whole call, and nothing
// may be sent.
func (s *Store) SendingWriteJobItems(id int64, seqs []int) error {
	now := s.now().UnixMilli()
	return s.inTx(func(tx *sql.Tx) error {
		for _, q := range seqs {
			res, err := tx.Exec(`UPDATE write_job_items SET state = 'in_flight', attempts = attempts + 1, sent_at = ?
WHERE job_id = ? AND seq = ? AND state = 'planned'`, now, id, q)
			if err != nil {
				return fmt.Errorf("write job %d: item %d could not be put in flight: %w", id, q, err)
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return fmt.Errorf("write job %d: item %d is not planned (another process may be running this job)", id, q)
			}
		}
		return nil
	})
}

// SettleWriteJobItems writes the answers of one request (or of a resume's
// check) in one transaction: each item's state, outcome, previous value and
// detail, by Seq. Only an item in flight or unknown takes an answer; a
// planned state puts an item back to be sent again (not sent, or retried
// later). Any other is an error and nothing of the call is written.
func (s *Store) SettleWriteJobItems(id int64, items []WriteJobItem) error {
	if len(items) == 0 {
		return nil
	}
	now := s.now().UnixMilli()
	return s.inTx(func(tx *sql.Tx) error {
		for _, it := range items {
			switch it.State {
			case ItemPlanned, ItemDone, ItemFailed, ItemUnknown:
			default:
				return fmt.Errorf("write job %d: item %d cannot be settled as %q", id, it.Seq, it.State)
			}
			done := now
			if it.State == ItemPlanned || it.State == ItemUnknown {
				done = 0
			}
			res, err := tx.Exec(`UPDATE write_job_items SET state = ?, outcome = ?, previous = ?, detail = ?, done_at = ?
WHERE job_id = ? AND seq = ? AND state IN ('in_flight', 'unknown')`, it.State, it.Outcome, it.Previous, it.Detail, done, id, it.Seq)
			if err != nil {
				return fmt.Errorf("write job %d: item %d could not be settled: %w", id, it.Seq, err)
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return fmt.Errorf("write job %d: item %d is not in flight: its answer is not taken", id, it.Seq)
			}
		}
		return nil
	})
}

// FinishWriteJob closes a job with its status and note.
func (s *Store) FinishWriteJob(id int64, status, note string) error {
	switch status {
	case JobRunning, JobComplete, JobStopped, JobCanceled:
	default:
		return fmt.Errorf("unknown write job status %q", status)
	}
	finished := s.now().UnixMilli()
	if status == JobRunning {
		finished = 0
	}
	return s.inTx(func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE write_jobs SET status = ?, note = ?, finished_at = ? WHERE id = ?`, status, note, finished, id)
		if err != nil {
			return fmt.Errorf("write job %d could not be finished: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("write job %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

const writeJobCols = `id, kind, profile, workspace_id, base_url, actor_email, actor_os_user, actor_key, plan, coalesce(undo_of, 0), status, note, created_at, finished_at`

func scanWriteJob(row interface{ Scan(...any) error }) (WriteJob, error) {
	var j WriteJob
	var created, finished int64
	err := row.Scan(&j.ID, &j.Kind, &j.Profile, &j.Workspace, &j.BaseURL, &j.ActorEmail, &j.ActorOSUser, &j.ActorKey,
		&j.Plan, &j.UndoOf, &j.Status, &j.Note, &created, &finished)
	j.CreatedAt = time.UnixMilli(created)
	if finished != 0 {
		j.FinishedAt = time.UnixMilli(finished)
	}
	return j, err
}

// WriteJob reads one job with its counts by state.
func (s *Store) WriteJob(id int64) (WriteJob, error) {
	j, err := scanWriteJob(s.db.QueryRow(`SELECT `+writeJobCols+` FROM write_jobs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return j, fmt.Errorf("write job %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return j, fmt.Errorf("write job %d could not be read: %w", id, err)
	}
	j.Counts, err = s.countReceipt(id, `SELECT state, count(*) FROM write_job_items WHERE job_id = ? GROUP BY state`)
	return j, err
}

// WriteJobs lists the jobs of the given kinds (every kind when none),
// newest first, with their counts.
func (s *Store) WriteJobs(kinds ...string) ([]WriteJob, error) {
	q := `SELECT ` + writeJobCols + ` FROM write_jobs`
	args := make([]any, len(kinds))
	if len(kinds) > 0 {
		q += ` WHERE kind IN (?` + strings.Repeat(`, ?`, len(kinds)-1) + `)`
		for i, k := range kinds {
			args[i] = k
		}
	}
	rows, err := s.db.Query(q+` ORDER BY id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("the write jobs could not be listed: %w", err)
	}
	var out []WriteJob
	for rows.Next() {
		j, err := scanWriteJob(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("the write jobs could not be listed: %w", err)
		}
		out = append(out, j)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("the write jobs could not be listed: %w", err)
	}
	for i := range out {
		if out[i].Counts, err = s.countReceipt(out[i].ID, `SELECT state, count(*) FROM write_job_items WHERE job_id = ? GROUP BY state`); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// WriteJobItems reads a job's items in order.
func (s *Store) WriteJobItems(id int64) ([]WriteJobItem, error) {
	rows, err := s.db.Query(`
SELECT seq, send_no, target, label, action, params, state, outcome, previous, detail, attempts, sent_at, done_at
FROM write_job_items WHERE job_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, fmt.Errorf("write job %d could not be read: %w", id, err)
	}
	defer rows.Close()
	var out []WriteJobItem
	for rows.Next() {
		var it WriteJobItem
		var sent, done int64
		if err := rows.Scan(&it.Seq, &it.Send, &it.Target, &it.Label, &it.Action, &it.Params, &it.State, &it.Outcome,
			&it.Previous, &it.Detail, &it.Attempts, &sent, &done); err != nil {
			return nil, fmt.Errorf("write job %d could not be read: %w", id, err)
		}
		if sent != 0 {
			it.SentAt = time.UnixMilli(sent)
		}
		if done != 0 {
			it.DoneAt = time.UnixMilli(done)
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// UndoneBy lists the ids of the jobs that undo job id, oldest first.
func (s *Store) UndoneBy(id int64) ([]int64, error) {
	rows, err := s.db.Query(`SELECT id FROM write_jobs WHERE undo_of = ? ORDER BY id`, id)
	if err != nil {
		return nil, fmt.Errorf("write job %d could not be read: %w", id, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
