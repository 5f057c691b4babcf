package evidence

import (
	"context"
	"io"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
)

// Job is a write job's evidence: the service's entries of the kind's
// audit type, by the token's user, in the span its requests went out.
type Job struct {
	Ev   audit.Evidence
	Note string
	OK   bool
}

// OfJob finds a write job's entries in the mirror; typ is the kind's
// audit type, projectID (when not "") the project they must name.
func OfJob(ctx context.Context, client func() (*api.Client, error), st *store.Store, rc *writejob.Receipt, typ, projectID string) Job {
	first, last, ok := rc.Sent()
	if !ok {
		return Job{Note: "nothing was sent", OK: true}
	}
	to := last.DoneAt
	if to.Before(last.SentAt) {
		to = last.SentAt
	}
	if to.IsZero() {
		to = time.Now()
	}
	ev, note, found := Find(ctx, client, st, audit.Action{Type: typ, From: first.SentAt, To: to, ProjectID: projectID})
	return Job{Ev: ev, Note: note, OK: found}
}

// Print writes the evidence lines of a receipt's text.
func (j Job) Print(w io.Writer) { Print(w, j.Ev, j.Note) }

// JSON is the evidence for --json.
func (j Job) JSON() map[string]any { return JSON(j.Ev, j.Note, j.OK) }
