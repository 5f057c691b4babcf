package audit

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// The service's own audit types for what vaultdeck does through the API.
const (
	TypeMatters       = "api:client_matter_management"
	TypeDeleteProject = "api:vault_delete_project"
	TypeUpload        = "api:vault_upload_files"
)

// Action is something vaultdeck did, as evidence is sought for it: the
// service records each API mutation as an entry of its own type for the
// token's user, at the time it happened.
type Action struct {
	Type string
	User string // the token's user (whoami's e-mail)
	// From and To bound when the requests went out (a run's start and
	// end; the same instant for one request).
	From, To time.Time
	// ProjectID, when set, must be the entry's data.project_id where the
	// entry names one (an entry that names none still matches: the data
	// of these types is not documented).
	ProjectID string
}

// EvidenceSlack widens an action's window on both sides: the service
// stamps an entry with its own clock, which may differ from this
// machine's, and a request is stamped when it is handled.
const EvidenceSlack = 2 * time.Minute

// Evidence is what the mirror says of an action.
type Evidence struct {
	Entries []store.AuditEntry // the service's entries for it, oldest first
	// Covered: the mirror holds the log past the action's window, so the
	// entries are all there are. Not covered: not yet in the mirror (run
	// `vaultdeck audit sync`), and an empty list proves nothing.
	Covered bool
	Upto    time.Time // the newest entry the mirror holds
	// Settles is when the action's window ends (its end and
	// EvidenceSlack): the service may stamp entries for it until then,
	// so no sync covers it before. Early: the mirror was synced after
	// the action, and only the window keeps it from covering it.
	Settles time.Time
	Early   bool
}

// Matches says whether e is the service's record of a: its type and user
// (ignoring case), a time inside the window widened by EvidenceSlack, and
// the project where both name one.
func (a Action) Matches(e store.AuditEntry) bool {
	if !strings.EqualFold(e.Type, a.Type) || a.User == "" || !strings.EqualFold(e.User, a.User) {
		return false
	}
	from, to := a.From.Add(-EvidenceSlack), a.To.Add(EvidenceSlack)
	if e.Time.IsZero() || e.Time.Before(from) || e.Time.After(to) {
		return false
	}
	if a.ProjectID != "" {
		if p := projectOf(e.Raw); p != "" && p != a.ProjectID {
			return false
		}
	}
	return true
}

// projectOf is the entry's data.project_id, "" when it names none.
func projectOf(raw []byte) string {
	var v struct {
		Data struct {
			ProjectID string `json:"project_id"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return v.Data.ProjectID
}

// FindEvidence looks for a's entries in the mirror alone: no request (the
// views ask it of every receipt and run they show). Covered says whether
// the mirror reaches past the window.
func FindEvidence(ctx context.Context, m Mirror, log string, a Action) (Evidence, error) {
	st, err := m.AuditState(ctx, log)
	if err != nil {
		return Evidence{}, err
	}
	ev := Evidence{Covered: st.Covers(a.To.Add(EvidenceSlack)), Upto: st.Last, Settles: a.To.Add(EvidenceSlack)}
	ev.Early = !ev.Covered && st.CaughtUp.After(a.To)
	if !st.Started() {
		return ev, nil
	}
	f := store.AuditFilter{Type: a.Type, User: a.User, Since: a.From.Add(-EvidenceSlack), Until: a.To.Add(EvidenceSlack + time.Nanosecond)}
	err = m.AuditEntries(ctx, log, f, func(e store.AuditEntry) error {
		if a.Matches(e) {
			ev.Entries = append(ev.Entries, e)
		}
		return nil
	})
	return ev, err
}

// String is the line the command line shows: its remedy is the shell
// command.
func (ev Evidence) String() string { return ev.Line("run `vaultdeck audit sync`") }

// Line is the evidence in one line, with remedy (what brings the mirror
// further: a shell command, or a key where the console runs the sync
// itself) where the mirror stops short. Entries found before the mirror's
// end are "so far": more may come once it reaches past the action.
func (ev Evidence) Line(remedy string) string {
	found := "the service's audit log records it: " + plural.Count(len(ev.Entries), "entry")
	// synced since the action, but inside its window: a sync helps only
	// once the window is over, and the line says when
	wait := "the service may stamp more until " + ev.Settles.UTC().Format("15:04:05") + " UTC; then " + remedy
	switch {
	case len(ev.Entries) > 0 && ev.Covered:
		return found
	case len(ev.Entries) > 0 && ev.Early:
		return found + " so far (" + wait + ")"
	case ev.Early:
		return "not yet in the mirror: " + strings.Replace(wait, "stamp more", "stamp it", 1)
	case len(ev.Entries) > 0:
		return found + " so far (the mirror stops before the action ends: " + remedy + ")"
	case ev.Covered:
		return "the service's audit log has no entry for it (the mirror covers that time)"
	}
	return "not yet in the mirror: " + remedy
}
