package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// Seeded names that carry terminal escape sequences, so the console's
// sanitising can be demonstrated. JSON encoding turns ESC and BEL into
// \u001b and \u0007; a client that prints them raw would clear the screen or
// write to the clipboard (OSC 52).
const (
	EscapeProjectName = "Project Falcon \x1b[2J\x1b[31m(URGENT)\x1b[0m"
	EscapeFileName    = "Board Minutes \x1b]52;c;cm0gLXJmIH4vLnNzaA==\x07(final).pdf"
)

// Fixture matters, documented in doc.go, that exercise the resolution rules.
const (
	ConflictClientID     = "10482" // (10482, 2023-0007): v2 matter plus a v1 matter with the same stored name
	ConflictMatterID     = "2023-0007"
	V1OnlyStoredName     = "20917.2022-0114" // reachable only through the stored name
	DashStoredName       = "31550-2021-0042" // v1 matter found once the delimiter is "-"
	LinkedClientID       = "40210"           // (40210, 2024-0001): externally linked
	LinkedMatterID       = "2024-0001"
	ExampleProjectName   = "Example Project — Vault Walkthrough"
	ConflictsProjectName = "Northwind Data Room — Processing Backlog"
	BigProjectName       = "Halvorsen Discovery Production (Vols. 1–40)"
)

// seeder builds a state from a seed. Every random choice comes from st.rng
// (a PCG), in a fixed order, so one seed always yields the same workspace.
type seeder struct {
	st   *state
	rng  *rand.Rand
	base time.Time
	// planted draws the ids of planted entries (seed_burst.go), apart
	// from rng so that planting moves nothing else.
	planted *rand.Rand
}

func seedState(seed int64, scale Scale, recycle, audit int, burst AuditBurst, leaver bool, now time.Time) *state {
	st := newState(seed)
	sd := &seeder{st: st, rng: st.rng, base: now.UTC().Truncate(time.Microsecond)}
	st.workspaceID = uuid4(sd.rng)
	st.workspaceName = "Harrowgate LLP"
	st.vaultSharing = true
	st.ethicalWall = true
	if scale == ScaleLarge {
		sd.users(largeUsers)
		sd.largeGroups()
	} else {
		sd.users(40)
	}
	sd.matters()
	sd.projects(scale)
	if scale == ScaleLarge {
		sd.largeProjects()
	}
	n := 30
	if scale == ScaleLarge {
		n = 100_000
	}
	if recycle > 0 {
		n = recycle
	}
	sd.recycleBin(n)
	na := 500
	if scale == ScaleLarge {
		na = 100_000
	}
	if audit > 0 {
		na = audit
	}
	planted := sd.burstEntries(burst)
	if leaver {
		planted = append(planted, sd.leaverLogin()...)
		slices.SortStableFunc(planted, func(a, b *auditEntry) int { return a.Timestamp.Compare(b.Timestamp) })
	}
	sd.auditLog(na, planted)
	return st
}

func (sd *seeder) pick(list []string) string { return list[sd.rng.IntN(len(list))] }

// ago returns a time between 1 ms and d+1 ms before the seed base, at
// microsecond precision (never the base itself, so spans derived from it are
// never empty).
func (sd *seeder) ago(d time.Duration) time.Time {
	return sd.base.Add(-time.Millisecond - time.Duration(sd.rng.Int64N(int64(d)))).Truncate(time.Microsecond)
}

func (sd *seeder) users(n int) {
	seen := map[string]bool{}
	for len(sd.st.users) < n {
		fn, ln := sd.pick(firstNames), sd.pick(lastNames)
		email := strings.ToLower(fmt.Sprintf("%c.%s@harrowgate-law.com", fn[0], ln))
		if seen[email] {
			continue
		}
		seen[email] = true
		sd.st.users = append(sd.st.users, &user{ID: uuid4(sd.rng), Email: email, Name: fn + " " + ln})
	}
	for _, name := range []string{"Litigation", "Corporate M&A", "Knowledge Management"} {
		g := &group{Name: name}
		for _, u := range sd.st.users {
			if sd.rng.IntN(5) == 0 {
				g.Members = append(g.Members, u)
			}
		}
		sd.st.groups = append(sd.st.groups, g)
	}
}

func (sd *seeder) user() *user { return sd.st.users[sd.rng.IntN(len(sd.st.users))] }

func (sd *seeder) matterName(company string) string {
	if sd.rng.IntN(2) == 0 {
		return fmt.Sprintf("%s v. %s — %s", company, sd.pick(opponents), sd.pick(matterKinds))
	}
	return fmt.Sprintf("%s — %s", company, sd.pick(matterKinds))
}

// matters seeds about 200 matters under 60 clients: mostly v2 pairs, some
// v1 stored-name-only matters, some externally linked, some already deleted,
// plus the fixtures named by the exported constants above.
func (sd *seeder) matters() {
	st := sd.st
	add := func(cid, mid, stored, desc string, v1, linked bool) *matter {
		if _, ok := st.clients[cid]; !ok && cid != "" {
			st.clients[cid] = &client{ID: uuid4(sd.rng), ClientID: cid, Name: desc}
		}
		m := &matter{ServiceID: uuid4(sd.rng), StoredName: stored, Description: desc, V1: v1,
			ExternallyLinked: linked, CreatedAt: sd.ago(3 * 365 * 24 * time.Hour), CreatorEmail: sd.user().Email}
		if !v1 {
			m.ClientID, m.MatterID = cid, mid
		}
		st.addMatter(m)
		return m
	}
	for i, company := range companies {
		cid := fmt.Sprintf("%05d", 10000+i*173)
		for j := 0; j < 2+sd.rng.IntN(4) && len(st.matters) < 200; j++ {
			mid := fmt.Sprintf("%d-%04d", 2019+sd.rng.IntN(7), sd.rng.IntN(9999)+1)
			if st.byPair[pairKey{cid, mid}] != nil || len(st.byName[cid+"."+mid]) > 0 {
				continue
			}
			v1 := sd.rng.IntN(7) == 0
			m := add(cid, mid, cid+"."+mid, sd.matterName(company), v1, sd.rng.IntN(10) == 0)
			if sd.rng.IntN(12) == 0 {
				m.DeletedAt = sd.ago(90 * 24 * time.Hour)
			}
		}
	}
	add(ConflictClientID, ConflictMatterID, ConflictClientID+"."+ConflictMatterID, "Granite Bank — Refinancing", false, false)
	add("", "", ConflictClientID+"."+ConflictMatterID, "Granite Bank — Refinancing (legacy import)", true, false)
	add("", "", V1OnlyStoredName, "Vantage Biotech v. Mercator Group — Patent Litigation", true, false)
	add("", "", DashStoredName, "Silverline Rail — Construction Arbitration", true, false)
	add(LinkedClientID, LinkedMatterID, LinkedClientID+"."+LinkedMatterID, "Umbra Security — Sanctions Screening (DMS-synced)", false, true)
	// Two pairs whose stored names collide once joined with ".".
	add("ACME.EU", "M-12", "ACME.EU.M-12", "Acme Corp (EU) — Merger Clearance", false, false)
	add("ACME", "EU.M-12", "ACME.EU.M-12", "Acme Corp — EU Merger Clearance", false, false)
}

func (sd *seeder) fileName() string {
	name := sd.pick(docTitles)
	if sd.rng.IntN(3) > 0 {
		name += " " + sd.pick(docQualifiers)
	}
	return name + sd.pick(docExts)
}

func (sd *seeder) projects(scale Scale) {
	st := sd.st
	type spec struct {
		name               string
		kb, example        bool
		conflicts          bool
		files              int
		workspaceShare     bool
		groupShare, matter bool
	}
	specs := []spec{
		{name: ExampleProjectName, example: true, files: 6},
		{name: "Firm Precedents Library", kb: true, files: 40, workspaceShare: true},
		{name: "Employment Law Knowledge Base", kb: true, files: 25, groupShare: true},
		{name: ConflictsProjectName, conflicts: true, files: 30, matter: true},
		{name: EscapeProjectName, files: 8},
		{name: "Acme Corp v. Halvorsen — Patent Litigation", files: 35, groupShare: true, matter: true},
		{name: "Bellhaven Shipping — Share Purchase", files: 28, matter: true},
		{name: "Eastgate Pharma — Regulatory Investigation", files: 22, groupShare: true, matter: true},
		{name: "Ironbridge Capital — Refinancing", files: 18, matter: true},
		{name: "Juniper Health — Data Protection Audit", files: 12, workspaceShare: true},
		{name: "Meridian Telecom v. Brightline Ltd — Supply Agreement Dispute", files: 16, matter: true},
		{name: BigProjectName, files: 20, groupShare: true, matter: true},
	}
	if scale == ScaleLarge {
		specs[len(specs)-1].files = 100_000
	}
	for _, sp := range specs {
		created := sd.ago(2 * 365 * 24 * time.Hour)
		p := &project{ID: uuid4(sd.rng), Name: sp.name, CreatedAt: created, Owner: sd.user(),
			IsKB: sp.kb, IsExample: sp.example, QueryCount: sd.rng.IntN(400),
			UpdatedAt: created.Add(time.Duration(sd.rng.Int64N(int64(sd.base.Sub(created))))).Truncate(time.Microsecond)}
		if sp.conflicts {
			p.ConflictFolders, p.ConflictFiles = 2, 7
		}
		if sp.matter {
			p.ClientMatterID = st.matters[sd.rng.IntN(len(st.matters))].ServiceID
		}
		if sp.workspaceShare {
			p.WorkspaceShare = "READ"
		}
		if sp.groupShare {
			p.GroupShares = []groupShare{{Group: st.groups[sd.rng.IntN(len(st.groups))], Level: "READ"}}
		}
		for k := 0; k < 2+sd.rng.IntN(5); k++ {
			u := sd.user()
			if u == p.Owner {
				continue
			}
			lvl := "READ"
			if sd.rng.IntN(3) == 0 {
				lvl = "MANAGE"
			}
			at := sd.ago(sd.base.Sub(created))
			// A user drawn twice has one direct share, at the higher
			// level (the level the users endpoint lists): the service
			// keeps one share a person. The draws are made either way, so
			// every later seeded value stays.
			if j := slices.IndexFunc(p.UserShares, func(sh share) bool { return sh.User == u }); j >= 0 {
				if lvl == "MANAGE" {
					p.UserShares[j].Level = lvl
				}
				continue
			}
			p.UserShares = append(p.UserShares, share{User: u, Level: lvl, CreatedAt: at})
		}
		st.addProject(p)
		sd.files(p, sp.files, sp.name == EscapeProjectName)
	}
}

// files seeds n files in p, covering every processing status; some files are
// stuck in PROCESSING for hours and some finish a few minutes after start.
func (sd *seeder) files(p *project, n int, escape bool) {
	big := n > 1000
	span := sd.base.Sub(p.CreatedAt)
	for i := 0; i < n; i++ {
		var name string
		switch {
		case escape && i == 0:
			name = EscapeFileName
		case big:
			name = fmt.Sprintf("HALV-PROD-%07d — %s", i+1, sd.fileName())
		default:
			name = sd.fileName()
			for p.live[name] != nil {
				name = sd.fileName()
				if p.live[name] != nil {
					name = fmt.Sprintf("%s (%d)%s", strings.TrimSuffix(name, extOf(name)), i, extOf(name))
				}
			}
		}
		f := &file{ID: uuid4(sd.rng), Name: name, Path: "/" + name, ContentType: contentTypeFor(name, ""),
			Size: 2_000 + sd.rng.Int64N(25_000_000), Project: p,
			UploadedAt: p.CreatedAt.Add(time.Duration(sd.rng.Int64N(int64(span)))).Truncate(time.Second)}
		switch r := sd.rng.IntN(100); {
		case r < 70:
			f.Status = StatusReadyToQuery
		case r < 78:
			f.Status = StatusReadyToReview
		case r < 82:
			f.Status = StatusUploaded
		case r < 86:
			f.Status = StatusRecoverableFailure
		case r < 89:
			f.Status = StatusUnrecoverableFailure
		case r < 94:
			// Stuck: processing for hours with no end.
			f.Status = StatusProcessing
			f.UploadedAt = sd.base.Add(-time.Duration(2+sd.rng.IntN(20)) * time.Hour).Truncate(time.Second)
		default:
			// Finishing soon: ready within a few minutes of the seed time.
			f.Status = StatusProcessing
			f.UploadedAt = sd.base.Add(-time.Duration(sd.rng.IntN(120)) * time.Second).Truncate(time.Second)
			f.ReadyAt = sd.base.Add(time.Duration(30+sd.rng.IntN(300)) * time.Second)
		}
		sd.st.addFile(f)
	}
}

func extOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i:]
	}
	return ""
}

// recycleBin seeds n entries over the last 30 days. Purging is scheduled
// 30 days after deletion and the simulator purges on time, so none is
// past its purge time: in every 25 entries four purge within 24 hours
// (before, one of them was seeded overdue, which a bin that purges on time
// never shows; the bin's badge counts the same four), five more within 7
// days, and the rest are spread over the remaining days.
func (sd *seeder) recycleBin(n int) {
	st := sd.st
	day := 24 * time.Hour
	entries := make([]*recycleEntry, 0, n)
	for i := 0; i < n; i++ {
		var deleted time.Time
		switch r := i % 25; {
		case r <= 3: // purge within 24 hours
			deleted = sd.base.Add(-29*day - time.Duration(sd.rng.Int64N(int64(day-time.Minute))))
		case r <= 8: // purge within 7 days
			deleted = sd.base.Add(-23*day - time.Duration(sd.rng.Int64N(int64(6*day))))
		default:
			deleted = sd.ago(23 * day)
		}
		deleted = deleted.Truncate(time.Microsecond)
		company := sd.pick(companies)
		e := &recycleEntry{
			ID: uuid4(sd.rng), ResourceID: uuid4(sd.rng), DeletedSourceID: uuid4(sd.rng),
			DeletedBy: sd.user().Email, DeletedAt: deleted, PurgeAt: deleted.Add(RecycleRetention),
			ProjectName: sd.matterName(company), CreatorEmail: sd.user().Email,
			FilesCount: sd.rng.IntN(300), IsKB: sd.rng.IntN(15) == 0,
		}
		e.ProjectCreatedAt = deleted.Add(-time.Duration(sd.rng.Int64N(int64(700 * day)))).Truncate(time.Microsecond)
		if sd.rng.IntN(3) == 0 {
			e.ClientMatterID = st.matters[sd.rng.IntN(len(st.matters))].ServiceID
		}
		entries = append(entries, e)
	}
	sortRecycle(entries)
	st.recycle = entries
	for _, e := range entries {
		st.notePurge(e)
	}
}

// auditSpan is how far back the seeded audit log reaches: past the one
// year that search can reach, so the oldest entries are found only by
// paging from earliest (and by a local mirror that kept them).
const auditSpan = 14 * 30 * 24 * time.Hour

// auditLog seeds n entries over auditSpan, denser towards the seed time:
// six in ten fall within the last 30 days, so a view opened on today's
// entries has some. appendAudit keeps them strictly ascending in time and id.
// A planted burst's entries (oldest first) go in among them at their times.
func (sd *seeder) auditLog(n int, planted []*auditEntry) {
	st := sd.st
	recent := n * 6 / 10
	offs := make([]int64, n) // before the seed time, in nanoseconds
	for i := range offs {
		span := auditSpan
		if i < recent {
			span = 30 * 24 * time.Hour
		}
		offs[i] = int64(time.Millisecond) + sd.rng.Int64N(int64(span))
	}
	slices.Sort(offs)
	st.audit = make([]*auditEntry, 0, n)
	for i := n - 1; i >= 0; i-- {
		t := sd.base.Add(-time.Duration(offs[i])).Truncate(time.Microsecond)
		for len(planted) > 0 && planted[0].Timestamp.Before(t) {
			sd.appendPlanted(planted[0])
			planted = planted[1:]
		}
		st.appendAudit(st.userEntry(sd.rng, t))
	}
	for _, e := range planted {
		sd.appendPlanted(e)
	}
}
