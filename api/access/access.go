// Package access is the access review: a crawl that gathers the users of
// every vault project into a snapshot, resumable and incremental, and the
// questions a review asks of snapshots (what a person can reach, who can
// reach a project, what changed between two reviews). The CLI, the console
// and serve all use it; persistence is the Snapshots interface, which store
// satisfies.
package access

import (
	"errors"
	"time"
)

// Levels of access the service reports in a project user's access_level.
// Other values are kept verbatim: the spec lists these two as observed only.
const (
	LevelRead   = "READ"
	LevelManage = "MANAGE"
)

// Project states within a snapshot.
const (
	StatePending = "pending" // listed, users not read yet
	StateRead    = "read"    // users read by this snapshot's crawl
	StateCarried = "carried" // unchanged since the last finished snapshot; its users copied
)

// Snapshot is one crawl of the workspace's project users. It is finished
// only when every listed project was read or carried over.
type Snapshot struct {
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
func (s Snapshot) Finished() bool { return !s.FinishedAt.IsZero() }

// Project is a listed project as a snapshot records it. UpdatedAt is the
// service's project_updated_at, normalised (see updatedKey); "" when the
// service sent none, which never matches, so such a project is always read.
type Project struct {
	ID        string `json:"project_id"`
	Name      string `json:"project_name"`
	UpdatedAt string `json:"project_updated_at"`
	State     string `json:"state"`
}

// Grant is one user's access to one project in a snapshot: the project
// user record of GET /api/v1/vault/projects/{id}/users (user_id, email,
// name, access_level, the spec's names) beside the project. The endpoint
// lists direct, inherited and owner access alike and does not say which a
// grant is, so neither does a snapshot.
type Grant struct {
	ProjectID   string `json:"project_id"`
	ProjectName string `json:"project_name"`
	UserID      string `json:"user_id"`
	Email       string `json:"email"`
	Name        string `json:"name"`
	AccessLevel string `json:"access_level"`
}

// GrantFilter selects grants; empty fields select all. Email matches
// case-insensitively.
type GrantFilter struct {
	Email     string
	ProjectID string
}

// ErrBusy is returned when another crawl of the same profile holds the
// snapshot's lease.
var ErrBusy = errors.New("another access crawl of this profile is running")

// ErrNoSnapshot is returned by queries when no finished snapshot exists.
var ErrNoSnapshot = errors.New("no finished access snapshot yet; run `vaultdeck access crawl`")

// Snapshots is the persistence the access review needs. store.Store
// satisfies it. Every method is one transaction: a crawl killed at any
// point leaves each project either read (with all its users) or pending.
type Snapshots interface {
	// AccessSnapshots lists the profile's snapshots, newest first,
	// unfinished ones included.
	AccessSnapshots(profile string) ([]Snapshot, error)
	// OpenAccessSnapshot returns the profile's unfinished snapshot, or
	// starts one at now, and takes its lease for owner until until. It
	// returns ErrBusy while another owner's lease is live, unless
	// gone(holder) says that owner's process no longer runs.
	OpenAccessSnapshot(profile, owner string, now, until time.Time, gone func(holder string) bool) (Snapshot, error)
	// RenewAccessLease extends owner's lease (ErrBusy when it was lost).
	RenewAccessLease(id int64, owner string, until time.Time) error
	// ReleaseAccessLease gives the lease up.
	ReleaseAccessLease(id int64, owner string) error
	// AccessProjects lists a snapshot's projects.
	AccessProjects(id int64) ([]Project, error)
	// PlanAccessProjects records the listing: projects in pending become
	// (or stay) pending with their grants removed, projects in carry get
	// the grants they had in snapshot from, ids in drop are removed.
	PlanAccessProjects(id int64, pending []Project, carry []Project, from int64, drop []string) error
	// CommitAccessProject records one project's users and marks it read.
	CommitAccessProject(id int64, p Project, users []Grant) error
	// AddAccessRequests adds to the snapshot's request count.
	AddAccessRequests(id int64, n int) error
	// FinishAccessSnapshot marks the snapshot finished at.
	FinishAccessSnapshot(id int64, at time.Time) error
	// AccessGrants lists a snapshot's grants matching f, ordered by email
	// then project name.
	AccessGrants(id int64, f GrantFilter) ([]Grant, error)
}
