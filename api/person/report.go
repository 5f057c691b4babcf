// Package person answers "who is this person here?" in one report: what
// they can reach (the last access snapshot), what they created (projects
// by creator_email, client matters by user_email), what they deleted
// (recycle-bin entries by deleted_by_user_email) and what they did (the
// audit mirror). Each part says where it came from and how old it is,
// and, when nothing local covers it, what fills it. Read assembles the
// report from local data alone (no request); Fill asks the service for
// the parts still missing, the fewest requests that cover them, and keeps
// the bodies so the next report needs none. The command line
// (`vaultdeck person`) and the console's person view print it.
package person

import (
	"fmt"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/store"
)

// Report is one person, whole. Its JSON is `vaultdeck person --json`.
type Report struct {
	Email    string    `json:"email"`
	Name     string    `json:"name,omitempty"` // as the snapshot names them
	At       time.Time `json:"at"`             // when the report was made
	Reach    Reach     `json:"reach"`
	Created  Created   `json:"created"`
	Deleted  Deleted   `json:"deleted"`
	Activity Activity  `json:"activity"`
	// Requests is how many requests Fill sent for this report (0 when the
	// local data covered it).
	Requests int `json:"requests"`
	// unknown is the snapshot's answer when it does not name the person.
	unknown *access.UnknownPersonError
}

// Source says where a part came from and how old it is; when Missing is
// set nothing local covers the part and it says what fills it.
type Source struct {
	From    string    `json:"from,omitempty"` // "access snapshot 3", "cached projects listing", "audit mirror"
	AsOf    time.Time `json:"as_of,omitzero"` // the snapshot's end, the cache's fetch, the mirror's last entry
	Missing string    `json:"missing,omitempty"`
	// Fill names what Fill would send for the part ("" when nothing can:
	// a crawl or a sync is a command of its own).
	Fill string `json:"-"`
	// Job names the local job that covers the part when Missing is set
	// ("access crawl", "audit sync"): a console that runs it itself (the
	// demo) offers a key instead of the shell command Missing names.
	Job string `json:"-"`
}

// Covered says the part has data.
func (s Source) Covered() bool { return s.Missing == "" }

// Reach is what the person can reach in the last finished snapshot.
type Reach struct {
	Source
	Snapshot int64               `json:"snapshot,omitempty"`
	Grants   []store.AccessGrant `json:"grants"` // MANAGE first, then by project name
	// SoleManage are the projects where they hold MANAGE and nobody else
	// in the snapshot does: who takes them over if they leave.
	SoleManage []store.AccessGrant `json:"sole_manage"`
	// How is how each project is reached, by project ID (owner, direct,
	// inherited), from the projects listing; a project it does not hold is
	// not in it.
	How map[string]string `json:"how"`
}

// Created is what the person created.
type Created struct {
	Projects       []api.Project `json:"projects"`
	ProjectsSource Source        `json:"projects_source"`
	// Matters are the client matters whose user_email is theirs, deleted
	// ones included (DeletedAt set), with their usage counts.
	Matters       []api.ClientMatter `json:"matters"`
	MattersSource Source             `json:"matters_source"`
}

// Deleted is what the person deleted that is still in the recycle bin.
type Deleted struct {
	Source
	Entries []api.RecycleBinEntry `json:"entries"` // soonest purge first
}

// Activity is what the audit mirror holds of the person.
type Activity struct {
	Source
	Since     time.Time   `json:"since,omitzero"` // the --since of Latest (zero: the latest MaxLatest)
	Total     int         `json:"total"`          // their entries in the mirror
	LastLogin *Entry      `json:"last_login,omitempty"`
	Addresses []Address   `json:"addresses"`   // most recent first
	Last7     []TypeCount `json:"last_7_days"` // by type, most first
	Last30    []TypeCount `json:"last_30_days"`
	Latest    []Entry     `json:"latest"` // newest first
}

// TypeCount is how many of their entries have one type.
type TypeCount struct {
	Type  string `json:"type"`
	Count int    `json:"count"`
}

// Entry is one audit entry of theirs.
type Entry struct {
	ID   string    `json:"id"`
	Time time.Time `json:"timestamp"`
	Type string    `json:"type"`
	IP   string    `json:"ip"`
}

// Address is an address they used: first and last seen, how often, and
// whether it is new (NewAddress).
type Address struct {
	IP    string    `json:"ip"`
	First time.Time `json:"first_seen"`
	Last  time.Time `json:"last_seen"`
	Count int       `json:"count"`
	New   bool      `json:"new"`
}

// Known says the local data names the person somewhere: an address that
// nothing names is a typo or a stranger, and the report says so instead
// of printing four empty parts.
func (r *Report) Known() bool {
	return len(r.Reach.Grants) > 0 || len(r.Created.Projects) > 0 || len(r.Created.Matters) > 0 ||
		len(r.Deleted.Entries) > 0 || r.Activity.Total > 0
}

// Unknown returns the error for a person nothing local names (Known is
// false): the snapshot's, with its close matches, when there is a
// snapshot. nil when the person is known.
func (r *Report) Unknown() error {
	if r.Known() {
		return nil
	}
	if r.unknown != nil {
		return fmt.Errorf("%w; nothing else kept here names them (projects, matters, recycle bin, audit mirror)", r.unknown)
	}
	return fmt.Errorf("nothing kept here names %s (no access snapshot, and no project, matter, deletion or audit entry of theirs); check the address", r.Email)
}

// LikelyTypo says the snapshot does not name the person but names
// someone close: the caller asks nothing of the service for a typo.
func (r *Report) LikelyTypo() bool { return r.unknown != nil && len(r.unknown.Close) > 0 && !r.Known() }

// Missing lists the parts nothing local covers, in report order.
func (r *Report) Missing() []Source {
	var out []Source
	for _, s := range []Source{r.Reach.Source, r.Created.ProjectsSource, r.Created.MattersSource, r.Deleted.Source, r.Activity.Source} {
		if !s.Covered() {
			out = append(out, s)
		}
	}
	return out
}

// FromConsoleProjects is the Source.From of a projects listing the console
// cached whole; like every From it reads after "from the".
const FromConsoleProjects = "console's cached projects listing"
