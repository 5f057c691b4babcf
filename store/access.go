package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The access review's snapshots: the record types are store's, and
// api/access names the methods it calls as its Snapshots interface. Each
// method is one transaction, so a crawl killed at any moment leaves every
// project either read with all its users or pending.

// An access project's states within a snapshot (access_projects.state).
const (
	AccessPending = "pending" // listed, users not read yet
	AccessRead    = "read"    // users read by this snapshot's crawl
	AccessCarried = "carried" // unchanged since the last finished snapshot; its users copied
)

// AccessSnapshot is one crawl of the workspace's project users. It is finished
// only when every listed project was read or carried over.
type AccessSnapshot struct {
	ID         int64     `json:"id"`
	Profile    string    `json:"profile"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at,omitzero"` // zero while the crawl is unfinished
	// Projects counts the listed projects by state.
	Projects int `json:"projects"`
	Read     int `json:"read"`
	Carried  int `json:"carried"`
	Pending  int `json:"pending"`
	Grants   int `json:"grants"`
	// Requests is how many service requests the crawls of this snapshot
	// made (project listing pages and project users), across resumes.
	Requests int `json:"requests"`
}

// Finished reports whether every project of the snapshot was read.
func (s AccessSnapshot) Finished() bool { return !s.FinishedAt.IsZero() }

// AccessProject is a listed project as a snapshot records it. UpdatedAt is the
// service's project_updated_at, normalised (see api/access's updatedKey); "" when the
// service sent none, which never matches, so such a project is always read.
type AccessProject struct {
	ID        string `json:"project_id"`
	Name      string `json:"project_name"`
	UpdatedAt string `json:"project_updated_at"`
	State     string `json:"state"`
}

// AccessGrant is one user's access to one project in a snapshot: the project
// user record of GET /api/v1/vault/projects/{id}/users (user_id, email,
// name, access_level, the spec's names) beside the project. The endpoint
// lists direct, inherited and owner access alike and does not say which a
// grant is, so neither does a snapshot.
type AccessGrant struct {
	ProjectID   string `json:"project_id"`
	ProjectName string `json:"project_name"`
	UserID      string `json:"user_id"`
	Email       string `json:"email"`
	Name        string `json:"name"`
	AccessLevel string `json:"access_level"`
}

// AccessGrantFilter selects grants; empty fields select all. Email matches
// case-insensitively.
type AccessGrantFilter struct {
	Email     string
	ProjectID string
}

// ErrAccessBusy is returned when another crawl of the same profile holds the
// snapshot's lease.
var ErrAccessBusy = errors.New("another access crawl of this profile is running")

// AccessSnapshots lists the profile's snapshots, newest first, with counts.
func (s *Store) AccessSnapshots(profile string) ([]AccessSnapshot, error) {
	rows, err := s.db.Query(`
SELECT s.id, s.profile, s.started_at, s.finished_at, s.requests,
	(SELECT count(*) FROM access_projects p WHERE p.snapshot_id = s.id),
	(SELECT count(*) FROM access_projects p WHERE p.snapshot_id = s.id AND p.state = 'read'),
	(SELECT count(*) FROM access_projects p WHERE p.snapshot_id = s.id AND p.state = 'carried'),
	(SELECT count(*) FROM access_grants g WHERE g.snapshot_id = s.id)
FROM access_snapshots s WHERE s.profile = ? ORDER BY s.id DESC`, profile)
	if err != nil {
		return nil, fmt.Errorf("access snapshots could not be read: %w", err)
	}
	defer rows.Close()
	var out []AccessSnapshot
	for rows.Next() {
		var sn AccessSnapshot
		var started, finished int64
		if err := rows.Scan(&sn.ID, &sn.Profile, &started, &finished, &sn.Requests, &sn.Projects, &sn.Read, &sn.Carried, &sn.Grants); err != nil {
			return nil, fmt.Errorf("access snapshots could not be read: %w", err)
		}
		sn.StartedAt = time.UnixMilli(started)
		if finished > 0 {
			sn.FinishedAt = time.UnixMilli(finished)
		}
		sn.Pending = sn.Projects - sn.Read - sn.Carried
		out = append(out, sn)
	}
	return out, rows.Err()
}

// OpenAccessSnapshot returns the unfinished snapshot of the profile (a
// unique index allows one) or starts one, and takes its lease.
func (s *Store) OpenAccessSnapshot(profile, owner string, now, until time.Time, gone func(holder string) bool) (AccessSnapshot, error) {
	var id int64
	err := s.inTx(func(tx *sql.Tx) error {
		var holder string
		var leaseUntil int64
		err := tx.QueryRow(`SELECT id, lease_owner, lease_until FROM access_snapshots WHERE profile = ? AND finished_at = 0`, profile).Scan(&id, &holder, &leaseUntil)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			res, err := tx.Exec(`INSERT INTO access_snapshots (profile, started_at, lease_owner, lease_until) VALUES (?, ?, ?, ?)`,
				profile, now.UnixMilli(), owner, until.UnixMilli())
			if err != nil {
				return err
			}
			id, err = res.LastInsertId()
			return err
		case err != nil:
			return err
		case holder != "" && holder != owner && !leaseLapsed(leaseUntil, now, until) && (gone == nil || !gone(holder)):
			return ErrAccessBusy
		}
		_, err = tx.Exec(`UPDATE access_snapshots SET lease_owner = ?, lease_until = ? WHERE id = ?`, owner, until.UnixMilli(), id)
		return err
	})
	if err != nil {
		if errors.Is(err, ErrAccessBusy) {
			return AccessSnapshot{}, err
		}
		return AccessSnapshot{}, fmt.Errorf("the access snapshot could not be opened: %w", err)
	}
	return AccessSnapshot{ID: id, Profile: profile, StartedAt: now}, nil
}

// RenewAccessLease extends owner's lease; ErrBusy when another owner took it.
func (s *Store) RenewAccessLease(id int64, owner string, until time.Time) error {
	res, err := s.db.Exec(`UPDATE access_snapshots SET lease_until = ? WHERE id = ? AND lease_owner = ?`, until.UnixMilli(), id, owner)
	if err != nil {
		return fmt.Errorf("the access crawl's lease could not be renewed: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrAccessBusy
	}
	return nil
}

// ReleaseAccessLease gives owner's lease up.
func (s *Store) ReleaseAccessLease(id int64, owner string) error {
	_, err := s.db.Exec(`UPDATE access_snapshots SET lease_owner = '', lease_until = 0 WHERE id = ? AND lease_owner = ?`, id, owner)
	return err
}

// AccessProjects lists a snapshot's projects by name.
func (s *Store) AccessProjects(id int64) ([]AccessProject, error) {
	rows, err := s.db.Query(`SELECT project_id, name, updated_at, state FROM access_projects WHERE snapshot_id = ? ORDER BY name, project_id`, id)
	if err != nil {
		return nil, fmt.Errorf("the access snapshot's projects could not be read: %w", err)
	}
	defer rows.Close()
	var out []AccessProject
	for rows.Next() {
		var p AccessProject
		if err := rows.Scan(&p.ID, &p.Name, &p.UpdatedAt, &p.State); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// planChunk is how many projects one transaction of a plan writes. The plan
// of a large workspace in one transaction (10,000 projects carried with
// their users: 3.4 s) held the database's write lock, and every other
// process's writes with it (an upload's journal), for seconds.
const planChunk = 200

// PlanAccessProjects records a listing's plan, in transactions of at most
// planChunk projects: ids in drop are removed, projects in pending become
// (or stay) pending with their grants removed, projects in carry get the
// grants they had in snapshot from. A plan cut short (a crash, a full disk)
// leaves some projects planned and the error returned: the crawl re-lists
// and plans again from what is recorded at every run, and a snapshot is
// finished only by a run whose whole plan was recorded.
func (s *Store) PlanAccessProjects(id int64, pending, carry []AccessProject, from int64, drop []string) error {
	clear := func(tx *sql.Tx, pid string) error {
		if _, err := tx.Exec(`DELETE FROM access_grants WHERE snapshot_id = ? AND project_id = ?`, id, pid); err != nil {
			return err
		}
		_, err := tx.Exec(`DELETE FROM access_projects WHERE snapshot_id = ? AND project_id = ?`, id, pid)
		return err
	}
	type step struct {
		drop  string
		p     AccessProject
		carry bool
	}
	steps := make([]step, 0, len(drop)+len(pending)+len(carry))
	for _, pid := range drop {
		steps = append(steps, step{drop: pid})
	}
	for _, p := range pending {
		steps = append(steps, step{p: p})
	}
	for _, p := range carry {
		steps = append(steps, step{p: p, carry: true})
	}
	for len(steps) > 0 {
		chunk := steps[:min(planChunk, len(steps))]
		steps = steps[len(chunk):]
		err := s.inTx(func(tx *sql.Tx) error {
			for _, st := range chunk {
				if st.drop != "" {
					if err := clear(tx, st.drop); err != nil {
						return err
					}
					continue
				}
				if err := clear(tx, st.p.ID); err != nil {
					return err
				}
				state := "pending"
				if st.carry {
					state = "carried"
				}
				if _, err := tx.Exec(`INSERT INTO access_projects (snapshot_id, project_id, name, updated_at, state) VALUES (?, ?, ?, ?, ?)`,
					id, st.p.ID, st.p.Name, st.p.UpdatedAt, state); err != nil {
					return err
				}
				if !st.carry {
					continue
				}
				if _, err := tx.Exec(`INSERT INTO access_grants (snapshot_id, project_id, project_name, user_id, email, name, access_level)
	SELECT ?, project_id, ?, user_id, email, name, access_level FROM access_grants WHERE snapshot_id = ? AND project_id = ?`,
					id, st.p.Name, from, st.p.ID); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("the access snapshot's project list could not be recorded: %w", err)
		}
	}
	return nil
}

// CommitAccessProject records one project's users and marks it read.
func (s *Store) CommitAccessProject(id int64, p AccessProject, users []AccessGrant) error {
	err := s.inTx(func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM access_grants WHERE snapshot_id = ? AND project_id = ?`, id, p.ID); err != nil {
			return err
		}
		for _, g := range users {
			if _, err := tx.Exec(`INSERT INTO access_grants (snapshot_id, project_id, project_name, user_id, email, name, access_level) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				id, p.ID, p.Name, g.UserID, g.Email, g.Name, g.AccessLevel); err != nil {
				return err
			}
		}
		_, err := tx.Exec(`INSERT INTO access_projects (snapshot_id, project_id, name, updated_at, state, read_at) VALUES (?, ?, ?, ?, 'read', ?)
	ON CONFLICT (snapshot_id, project_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at, state = 'read', read_at = excluded.read_at`,
			id, p.ID, p.Name, p.UpdatedAt, s.now().UnixMilli())
		return err
	})
	if err != nil {
		return fmt.Errorf("the users of project %s could not be recorded: %w", p.ID, err)
	}
	return nil
}

// AddAccessRequests adds n to the snapshot's request count.
func (s *Store) AddAccessRequests(id int64, n int) error {
	_, err := s.db.Exec(`UPDATE access_snapshots SET requests = requests + ? WHERE id = ?`, n, id)
	return err
}

// FinishAccessSnapshot marks the snapshot finished; it refuses while a
// project is still pending.
func (s *Store) FinishAccessSnapshot(id int64, at time.Time) error {
	return s.inTx(func(tx *sql.Tx) error {
		var pending int
		if err := tx.QueryRow(`SELECT count(*) FROM access_projects WHERE snapshot_id = ? AND state = 'pending'`, id).Scan(&pending); err != nil {
			return err
		}
		if pending > 0 {
			return fmt.Errorf("access snapshot %d is not finished: projects left to read: %d", id, pending)

		}
		_, err := tx.Exec(`UPDATE access_snapshots SET finished_at = ?, lease_owner = '', lease_until = 0 WHERE id = ?`, max(at.UnixMilli(), 1), id)
		return err
	})
}

// AccessGrants lists a snapshot's grants matching f, by email then project.
func (s *Store) AccessGrants(id int64, f AccessGrantFilter) ([]AccessGrant, error) {
	q := `SELECT project_id, project_name, user_id, email, name, access_level FROM access_grants WHERE snapshot_id = ?`
	args := []any{id}
	if f.Email != "" {
		q += ` AND email = ? COLLATE NOCASE`
		args = append(args, f.Email)
	}
	if f.ProjectID != "" {
		q += ` AND project_id = ?`
		args = append(args, f.ProjectID)
	}
	rows, err := s.db.Query(q+` ORDER BY email COLLATE NOCASE, project_name, project_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("the access snapshot's grants could not be read: %w", err)
	}
	defer rows.Close()
	var out []AccessGrant
	for rows.Next() {
		var g AccessGrant
		if err := rows.Scan(&g.ProjectID, &g.ProjectName, &g.UserID, &g.Email, &g.Name, &g.AccessLevel); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}
