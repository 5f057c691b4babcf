package upload

// The incident report of a run (issue 44, `uploads report RUN`): what was
// uploaded where and when, when each file was removed, who could reach the
// project meanwhile (its users now, and the access snapshots that cover
// the window), and the audit entries on that project or those files in the
// window, from the local mirror, with what the log cannot tell said.

import (
	"bytes"
	"context"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// IncidentFile is one file of the run.
type IncidentFile struct {
	Name, Path, Local, FileID string
	Size                      int64
	UploadedAt                time.Time
	RemovedAt                 time.Time // zero: still there, as far as vaultdeck knows
	Removed                   string    // how ("deleted by undo job 3", "replaced by a later upload")
	// Unknown: an undo sent its deletion and its answer was not recorded
	// (a stopped undo): removed or not cannot be told; says which job
	Unknown string
}

// Reacher is one person who could reach the project, and where that is
// known from.
type Reacher struct {
	Email, Name, Level string
	Source             string // "now" or "snapshot N (TIME)"
}

// Incident is the report.
type Incident struct {
	Run        store.RunSummary
	From, To   time.Time // the window: the first request to the last removal (or now)
	StillThere int
	Unknown    int // files whose removal is unknown (IncidentFile.Unknown)
	Files      []IncidentFile
	Reachers   []Reacher
	NowErr     string // why the users now could not be read
	Snapshots  []store.AccessSnapshot
	Entries    []store.AuditEntry
	Covered    bool // the mirror holds the log past the window
	Cannot     []string
}

// IncidentSource is what the report reads of the service: the project's
// users now.
type IncidentSource interface {
	ProjectUsers(projectID string) api.Listing[api.ProjectUser]
}

// IncidentStore is what it reads locally.
type IncidentStore interface {
	RunFiles(runID int64) ([]store.JournalFile, error)
	RunSpan(runID int64) (first, last time.Time, ok bool, err error)
	AccessSnapshots(profile string) ([]store.AccessSnapshot, error)
	AccessGrants(id int64, f store.AccessGrantFilter) ([]store.AccessGrant, error)
	AuditState(ctx context.Context, log string) (store.AuditMirrorState, error)
	AuditEntries(ctx context.Context, log string, f store.AuditFilter, fn func(store.AuditEntry) error) error
}

// BuildIncident puts the report together. removed names the files an
// undo deleted (file ID: when and by what); log is the mirror's key of
// the workspace's log ("" when whoami could not say: no entries then).
func BuildIncident(ctx context.Context, svc IncidentSource, st IncidentStore, run store.RunSummary, removed map[string]IncidentFile,
	log string, now time.Time) (*Incident, error) {
	inc := &Incident{Run: run}
	files, err := st.RunFiles(run.ID)
	if err != nil {
		return nil, err
	}
	first, _, sent, err := st.RunSpan(run.ID)
	if err != nil {
		return nil, err
	}
	if !sent {
		first = run.CreatedAt
	}
	inc.From, inc.To = first.UTC(), time.Time{}
	open := false
	ids := map[string]bool{}
	for _, f := range files {
		if f.FileID == "" {
			continue
		}
		x := IncidentFile{Name: f.Name, Path: f.Path, Local: f.Local, FileID: f.FileID, Size: f.Size, UploadedAt: f.UploadedAt}
		if r, ok := removed[f.FileID]; ok && r.Unknown != "" {
			x.Unknown = r.Unknown
		} else if ok {
			x.RemovedAt, x.Removed = r.RemovedAt, r.Removed
		} else if !f.DeletedAt.IsZero() {
			x.RemovedAt, x.Removed = f.DeletedAt, "replaced by a later upload of its name"
		}
		if x.Unknown != "" {
			open = true
			inc.Unknown++
		} else if x.RemovedAt.IsZero() {
			open = true
			inc.StillThere++
		} else if x.RemovedAt.After(inc.To) {
			inc.To = x.RemovedAt
		}
		ids[strings.ToLower(f.FileID)] = true
		inc.Files = append(inc.Files, x)
	}
	if open || inc.To.IsZero() {
		inc.To = now.UTC()
	}
	// who can reach it now
	users, _, err := svc.ProjectUsers(run.ProjectID).Collect(ctx)
	if err != nil {
		inc.NowErr = err.Error()
	}
	for _, u := range users {
		inc.Reachers = append(inc.Reachers, Reacher{Email: u.Email, Name: u.Name, Level: u.AccessLevel, Source: "now"})
	}
	// the snapshots that cover the window: the last one finished before
	// it began (the access then), and every one finished inside it
	snaps, err := st.AccessSnapshots(run.Profile)
	if err != nil {
		return nil, err
	}
	var before *store.AccessSnapshot
	for i := range snaps {
		s := snaps[i]
		switch {
		case s.FinishedAt.IsZero():
		case s.FinishedAt.Before(inc.From):
			if before == nil || s.FinishedAt.After(before.FinishedAt) {
				before = &snaps[i]
			}
		case !s.FinishedAt.After(inc.To):
			inc.Snapshots = append(inc.Snapshots, s)
		}
	}
	if before != nil {
		inc.Snapshots = append([]store.AccessSnapshot{*before}, inc.Snapshots...)
	}
	for _, s := range inc.Snapshots {
		gs, err := st.AccessGrants(s.ID, store.AccessGrantFilter{ProjectID: run.ProjectID})
		if err != nil {
			return nil, err
		}
		for _, g := range gs {
			inc.Reachers = append(inc.Reachers, Reacher{Email: g.Email, Name: g.Name, Level: g.AccessLevel,
				Source: "snapshot " + itoa(s.ID) + " (" + s.FinishedAt.UTC().Format(time.RFC3339) + ")"})
		}
	}
	if len(inc.Snapshots) == 0 {
		inc.Cannot = append(inc.Cannot, "no access snapshot covers the window (`vaultdeck access crawl` takes one): who could reach the project then is known only as it is now, and access changed meanwhile cannot be told")
	}
	// the audit entries of the window naming the project or a file
	if log != "" {
		ms, err := st.AuditState(ctx, log)
		if err != nil {
			return nil, err
		}
		inc.Covered = ms.Covers(inc.To)
		pid := []byte(strings.ToLower(run.ProjectID))
		err = st.AuditEntries(ctx, log, store.AuditFilter{Since: inc.From.Add(-2 * time.Minute), Until: inc.To.Add(2 * time.Minute)}, func(e store.AuditEntry) error {
			raw := bytes.ToLower(e.Raw)
			hit := bytes.Contains(raw, pid)
			for id := range ids {
				hit = hit || bytes.Contains(raw, []byte(id))
			}
			if hit {
				inc.Entries = append(inc.Entries, e)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if !inc.Covered {
			inc.Cannot = append(inc.Cannot, "the local audit mirror does not reach the end of the window: run `vaultdeck audit sync`; the entries below are those it holds")
		}
	} else {
		inc.Cannot = append(inc.Cannot, "the workspace's audit log could not be named (whoami failed): no audit entries are shown")
	}
	inc.Cannot = append(inc.Cannot,
		"the audit log names what its entries record (API calls, sharing changes, logins); whether a person who could reach the project opened, read or downloaded a file is told only where the service writes an entry for it, so a person listed here without an entry may still have seen the files")
	return inc, nil
}

func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	for n >= 10 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	i--
	b[i] = byte('0' + n)
	return string(b[i:])
}
