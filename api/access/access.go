// Package access is the access review: a crawl that gathers the users of
// every vault project into a snapshot, resumable and incremental, and the
// questions a review asks of snapshots (what a person can reach, who can
// reach a project, what changed between two reviews). The CLI, the console
// and serve all use it; persistence is the Snapshots interface (the store
// methods it calls, over store's record types AccessSnapshot, AccessProject
// and AccessGrant), which *store.Store satisfies.
package access

import (
	"errors"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// Levels of access the service reports in a project user's access_level.
// Other values are kept verbatim: the spec lists these two as observed only.
const (
	LevelRead   = "READ"
	LevelManage = "MANAGE"
)

// ErrNoSnapshot is returned by queries when no finished snapshot exists.
var ErrNoSnapshot = errors.New("no finished access snapshot yet; run `vaultdeck access crawl`")

// Snapshots is the persistence the access review needs. store.Store
// satisfies it. Every method is one transaction: a crawl killed at any
// point leaves each project either read (with all its users) or pending.
type Snapshots interface {
	// AccessSnapshots lists the profile's snapshots, newest first,
	// unfinished ones included.
	AccessSnapshots(profile string) ([]store.AccessSnapshot, error)
	// OpenAccessSnapshot returns the profile's unfinished snapshot, or
	// starts one at now, and takes its lease for owner until until. It
	// returns store.ErrAccessBusy while another owner's lease is live, unless
	// gone(holder) says that owner's process no longer runs.
	OpenAccessSnapshot(profile, owner string, now, until time.Time, gone func(holder string) bool) (store.AccessSnapshot, error)
	// RenewAccessLease extends owner's lease (store.ErrAccessBusy when it was lost).
	RenewAccessLease(id int64, owner string, until time.Time) error
	// ReleaseAccessLease gives the lease up.
	ReleaseAccessLease(id int64, owner string) error
	// AccessProjects lists a snapshot's projects.
	AccessProjects(id int64) ([]store.AccessProject, error)
	// PlanAccessProjects records the listing: projects in pending become
	// (or stay) pending with their grants removed, projects in carry get
	// the grants they had in snapshot from, ids in drop are removed.
	PlanAccessProjects(id int64, pending []store.AccessProject, carry []store.AccessProject, from int64, drop []string) error
	// CommitAccessProject records one project's users and marks it read.
	CommitAccessProject(id int64, p store.AccessProject, users []store.AccessGrant) error
	// AddAccessRequests adds to the snapshot's request count.
	AddAccessRequests(id int64, n int) error
	// FinishAccessSnapshot marks the snapshot finished at.
	FinishAccessSnapshot(id int64, at time.Time) error
	// Unchanged says when the database's files are no longer the ones the
	// store opened (store.ErrChanged): asked before each request, so no
	// project is read whose users would not be kept.
	Unchanged() error
	// Check proves the file whole before a crawl writes into it
	// (store.ErrDamaged).
	Check() error
	// AccessGrants lists a snapshot's grants matching f, ordered by email
	// then project name.
	AccessGrants(id int64, f store.AccessGrantFilter) ([]store.AccessGrant, error)
}
