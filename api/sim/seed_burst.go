package sim

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// AuditBurst plants a burst of deletions in the seeded audit log: what an
// admin hunts for ("was there a burst of deletions last night, and from
// where?"), so the activity view and `vaultdeck audit stats` can be tried
// and tested on a log where the answer is known. The zero value plants
// nothing.
type AuditBurst struct {
	// Count is how many api:vault_delete_project entries (0: no burst).
	Count int
	// Ago is how long before the seed time the burst starts (default 10h).
	Ago time.Duration
	// Every is the time between two deletions (default 15s).
	Every time.Duration
	// IP is the address they come from (default 203.0.113.77, a
	// documentation address the seed never gives anyone, so it is new).
	IP string
	// User is whose they are (default the seed's first user).
	User string
}

// DefaultBurstIP is the address a planted burst comes from by default.
const DefaultBurstIP = "203.0.113.77"

// burstEntries are b's entries, oldest first: a sign-in from the address
// a minute before the first deletion, then Count deletions of projects.
// Their ids are drawn from a stream of their own (plantRNG), so planting
// a burst changes nothing else the seed decides.
func (sd *seeder) burstEntries(b AuditBurst) []*auditEntry {
	if b.Count <= 0 {
		return nil
	}
	if b.Ago <= 0 {
		b.Ago = 10 * time.Hour
	}
	if b.Every <= 0 {
		b.Every = 15 * time.Second
	}
	if b.IP == "" {
		b.IP = DefaultBurstIP
	}
	if b.User == "" {
		b.User = sd.st.users[0].Email
	}
	start := sd.base.Add(-b.Ago)
	out := []*auditEntry{{Timestamp: start.Add(-time.Minute), Type: AuditLogin, User: b.User, IP: b.IP,
		UserAgent: userAgents[0], Site: defaultAuditSite}}
	for i := range b.Count {
		at := start.Add(time.Duration(i) * b.Every)
		gone := sd.burstProject(b.User, at)
		out = append(out, &auditEntry{Timestamp: at, Type: AuditAPIDeleteProject,
			User: b.User, IP: b.IP, UserAgent: "vaultdeck", Site: defaultAuditSite,
			Extra: map[string]any{"project_id": gone.ResourceID}})
	}
	return out
}

// burstProject is a project the burst deleted at at, put in the recycle
// bin as an accepted deletion lands there (DeleteDelay later, purged
// RecycleRetention after that), drawn from the planted stream: the log's
// deletions name projects the bin holds, so an investigation that starts
// at the burst finds what was deleted, and who (issue 42; before, the
// burst named projects that were nowhere).
func (sd *seeder) burstProject(by string, at time.Time) *recycleEntry {
	r := sd.plantRNG()
	deleted := at.Add(DeleteDelay)
	company := companies[r.IntN(len(companies))]
	e := &recycleEntry{ID: uuid4(r), ResourceID: uuid4(r), DeletedSourceID: uuid4(r), DeletedBy: by,
		DeletedAt: deleted, PurgeAt: deleted.Add(RecycleRetention),
		ProjectName:      fmt.Sprintf("%s — %s", company, matterKinds[r.IntN(len(matterKinds))]),
		ProjectCreatedAt: deleted.Add(-time.Duration(r.Int64N(int64(700 * 24 * time.Hour)))).Truncate(time.Microsecond),
		CreatorEmail:     sd.st.users[r.IntN(len(sd.st.users))].Email, FilesCount: r.IntN(300)}
	sd.st.insertRecycle(e)
	return e
}

// plantRNG is the planted entries' own random stream.
func (sd *seeder) plantRNG() *rand.Rand {
	if sd.planted == nil {
		sd.planted = rand.New(rand.NewPCG(uint64(sd.base.UnixNano()), 0xb125))
	}
	return sd.planted
}

// appendPlanted appends e with an id from the planted stream, so the
// seed's own stream (which also draws the ordinary entries) is untouched.
func (sd *seeder) appendPlanted(e *auditEntry) {
	own := sd.st.rng
	sd.st.rng = sd.plantRNG()
	sd.st.appendAudit(e)
	sd.st.rng = own
}
