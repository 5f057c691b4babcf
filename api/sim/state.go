package sim

import (
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// state is everything the simulated workspace holds. It is only touched with
// Server.mu held; Reset replaces it wholesale.
type state struct {
	rng           *rand.Rand
	leaver        string // the planted leaver's e-mail (Options.Leaver), or ""
	workspaceID   string
	workspaceName string
	delimiter     string // "" means unset: the default "." applies
	ethicalWall   bool
	vaultSharing  bool
	metadataFlat  bool // get_metadata answers in the older, flat shape

	users  []*user
	groups []*group

	clients map[string]*client // by firm client_id
	matters []*matter
	byPair  map[pairKey]*matter
	byName  map[string][]*matter // stored name -> matters (v1 names can repeat)

	projects map[string]*project
	files    map[string]*file
	fileSeq  int64

	recycle []*recycleEntry // deleted_at descending
	// nextPurge is the earliest purge time in recycle (zero: none), so
	// that a read finds nothing to purge without walking the bin.
	nextPurge time.Time
	audit     []*auditEntry // id ascending (== timestamp ascending)
	pending   []*project    // deletions accepted but not yet applied

	// The trickle of user audit entries (auditlog.go): entries a minute,
	// the time of the next one, and its own generator.
	trickleRate int
	trickleNext time.Time
	trickleRNG  *rand.Rand

	// Sharing changes made when the clock crosses a UTC midnight
	// (sharing.go): how many a day, the last midnight done, the generator.
	churnPerDay int
	churnDay    time.Time
	churnRNG    *rand.Rand
}

type pairKey struct{ client, matter string }

type user struct {
	ID, Email, Name string
	// Inactive: deactivated (Deactivate). An inactive user reaches no
	// project: neither listing shows them, and sharing requests naming
	// them fail.
	Inactive bool
}

type group struct {
	Name    string
	Members []*user
}

type client struct {
	ID       string // internal UUID
	ClientID string // firm identifier
	Name     string
}

// matter is a client matter. v2 matters carry their firm pair; v1 matters
// were created by name only, so they are reachable from DELETE /api/v2/matters
// only through StoredName (client_id + delimiter + matter_id).
type matter struct {
	ServiceID        string
	ClientID         string // "" for v1 matters
	MatterID         string // "" for v1 matters
	StoredName       string
	Description      string
	ExternallyLinked bool
	V1               bool
	CreatedAt        time.Time
	DeletedAt        time.Time // zero while present
	CreatorEmail     string
}

func (m *matter) deleted() bool { return !m.DeletedAt.IsZero() }

type share struct {
	User      *user
	Level     string // MANAGE or READ
	CreatedAt time.Time
}

type groupShare struct {
	Group *group
	Level string
}

type project struct {
	ID             string
	Name           string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	Owner          *user
	IsKB           bool
	IsExample      bool
	ClientMatterID string // service UUID of the associated matter, if any
	QueryCount     int
	// Conflicts, when set, makes deletion fail with the partial-failure body.
	ConflictFolders, ConflictFiles int
	UserShares                     []share
	GroupShares                    []groupShare
	WorkspaceShare                 string // "" or the access level of a workspace-wide share

	Files     []*file          // upload order
	live      map[string]*file // live files by name, for duplicate_mode
	FileCount int
	SizeBytes int64

	// MaxFiles and MaxBytes are the project's limits (0: the defaults,
	// metadata.go); SetProjectLimits changes them.
	MaxFiles int
	MaxBytes int64

	DeleteDue time.Time // non-zero while deletion is in progress
	DeleteBy  string
	Deleted   bool
}

type file struct {
	ID          string
	Name        string
	Path        string
	ContentType string
	Status      string // UPPERCASE; see effectiveStatus
	Size        int64
	UploadedAt  time.Time
	ReadyAt     time.Time // PROCESSING becomes READY_TO_QUERY at ReadyAt; zero: never
	RootFileID  string
	DeletedAt   time.Time
	Project     *project
	Seq         int64
}

type recycleEntry struct {
	ID, ResourceID, DeletedSourceID, DeletedBy string
	DeletedAt, PurgeAt                         time.Time
	ProjectName                                string
	ProjectCreatedAt                           time.Time
	CreatorEmail                               string
	FilesCount                                 int
	IsKB                                       bool
	ClientMatterID                             string
}

type auditEntry struct {
	ID        string
	Timestamp time.Time
	Type      string
	User      string
	IP        string
	UserAgent string
	Site      string
	Fetched   int            // admin:fetch_workspace_users only
	Extra     map[string]any // type-specific data of api:* entries
}

func newState(seed int64) *state {
	return &state{
		rng:        newRand(seed, 0x5eed),
		trickleRNG: newRand(seed, 0x7e1c),
		churnRNG:   newRand(seed, 0xc4a9),
		clients:    map[string]*client{},
		byPair:     map[pairKey]*matter{},
		byName:     map[string][]*matter{},
		projects:   map[string]*project{},
		files:      map[string]*file{},
	}
}

// delim is the workspace delimiter, "." when unset or blank (rule 5).
func (st *state) delim() string {
	if isBlank(st.delimiter) {
		return "."
	}
	return st.delimiter
}

func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' && r != '\v' && r != '\f' {
			return false
		}
	}
	return true
}

func (st *state) addMatter(m *matter) {
	st.matters = append(st.matters, m)
	if !m.V1 {
		st.byPair[pairKey{m.ClientID, m.MatterID}] = m
	}
	if m.StoredName != "" {
		st.byName[m.StoredName] = append(st.byName[m.StoredName], m)
	}
}

func (st *state) addProject(p *project) {
	if p.live == nil {
		p.live = map[string]*file{}
	}
	st.projects[p.ID] = p
}

// addFile appends f to its project and keeps the counters the listings use.
func (st *state) addFile(f *file) {
	st.fileSeq++
	f.Seq = st.fileSeq
	p := f.Project
	p.Files = append(p.Files, f)
	p.live[f.Name] = f
	p.FileCount++
	p.SizeBytes += f.Size
	st.files[f.ID] = f
}

// retireFile marks a replaced file deleted; it stays readable by id.
func (st *state) retireFile(f *file, now time.Time) {
	f.DeletedAt = now
	p := f.Project
	if p.live[f.Name] == f {
		delete(p.live, f.Name)
	}
	p.FileCount--
	p.SizeBytes -= f.Size
}

// settle applies project deletions whose time has come.
func (st *state) settle(now time.Time) {
	if len(st.pending) == 0 {
		return
	}
	keep := st.pending[:0]
	for _, p := range st.pending {
		if p.DeleteDue.After(now) {
			keep = append(keep, p)
			continue
		}
		st.finishDelete(p)
	}
	st.pending = keep
}

// purge removes the recycle-bin entries whose purge time has passed (at
// or before now), each at its own time, and with a project of this
// workspace its files: the project is gone for good (no listing, no
// endpoint knows it). No document says the service logs a purge, so the
// simulator's log has no entry for it; the deletion's entry stays.
func (st *state) purge(now time.Time) {
	if st.nextPurge.IsZero() || st.nextPurge.After(now) {
		return
	}
	keep := st.recycle[:0]
	for _, e := range st.recycle {
		if e.PurgeAt.After(now) {
			keep = append(keep, e)
			continue
		}
		if p := st.projects[e.ResourceID]; p != nil && p.Deleted {
			for _, f := range p.Files {
				delete(st.files, f.ID)
			}
			delete(st.projects, p.ID)
		}
	}
	clear(st.recycle[len(keep):]) // the purged entries are not held on to
	st.recycle = keep
	st.nextPurge = time.Time{}
	for _, e := range st.recycle {
		st.notePurge(e)
	}
}

// notePurge keeps nextPurge the earliest purge time of the bin.
func (st *state) notePurge(e *recycleEntry) {
	if st.nextPurge.IsZero() || e.PurgeAt.Before(st.nextPurge) {
		st.nextPurge = e.PurgeAt
	}
}

func (st *state) finishDelete(p *project) {
	p.Deleted = true
	e := &recycleEntry{
		ID:               uuid4(st.rng),
		ResourceID:       p.ID,
		DeletedSourceID:  uuid4(st.rng),
		DeletedBy:        p.DeleteBy,
		DeletedAt:        p.DeleteDue,
		PurgeAt:          p.DeleteDue.Add(RecycleRetention),
		ProjectName:      p.Name,
		ProjectCreatedAt: p.CreatedAt,
		CreatorEmail:     p.Owner.Email,
		FilesCount:       p.FileCount,
		IsKB:             p.IsKB,
		ClientMatterID:   p.ClientMatterID,
	}
	st.insertRecycle(e)
}

// insertRecycle keeps st.recycle sorted by deleted_at descending.
func (st *state) insertRecycle(e *recycleEntry) {
	i := 0
	for i < len(st.recycle) && !st.recycle[i].DeletedAt.Before(e.DeletedAt) {
		i++
	}
	st.recycle = append(st.recycle, nil)
	copy(st.recycle[i+1:], st.recycle[i:])
	st.recycle[i] = e
	st.notePurge(e)
}

// RecycleRetention is how long a deleted project stays in the recycle bin:
// its purge is scheduled (recycle_bin_purged_scheduled_at) this long after
// its deletion, and the simulator purges it then. No public document gives
// the service's retention; 30 days is the simulator's choice.
const RecycleRetention = 30 * 24 * time.Hour

func sortRecycle(list []*recycleEntry) {
	slices.SortStableFunc(list, func(a, b *recycleEntry) int {
		if c := b.DeletedAt.Compare(a.DeletedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}
