package cli

import (
	"context"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// hubAction is one row of `vaultdeck serve actions` (store.HubAction).
type hubAction struct {
	ID           int64     `json:"id"`
	At           time.Time `json:"at"`
	Actor        string    `json:"actor"`
	KeySHA256    string    `json:"key_sha256"`
	KeyComment   string    `json:"key_comment,omitempty"`
	Principal    string    `json:"principal,omitempty"`
	KeyID        string    `json:"key_id,omitempty"`
	OSUser       string    `json:"os_user,omitempty"`
	Remote       string    `json:"remote,omitempty"`
	Profile      string    `json:"profile"`
	What         string    `json:"what"`
	Target       string    `json:"target,omitempty"`
	Method       string    `json:"method"`
	Path         string    `json:"path"`
	Status       int       `json:"status"`
	Outcome      string    `json:"outcome"`
	Detail       string    `json:"detail,omitempty"`
	AuditType    string    `json:"audit_type,omitempty"`
	AuditEntries string    `json:"audit_entries"`
	AuditNote    string    `json:"audit_note"`
}

// serveActionsCmd is `vaultdeck serve actions`: the record of every write
// made through serve on this machine, read from the local database. It
// only reads: no command changes or deletes the record.
func (r *tree) serveActionsCmd() *cobra.Command {
	var since time.Duration
	c := &cobra.Command{Use: "actions", Short: "the record of every write made through serve: who, when, what, outcome, the service's audit entries",
		Args: cmdutil.NoArgs}
	c.Flags().DurationVar(&since, "since", 0, "only actions this recent (e.g. 24h; default: all)")
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		st, err := r.f.Store()
		if err != nil {
			return r.p.Fail(err)
		}
		defer st.Close()
		var from time.Time
		if since > 0 {
			from = r.f.Now().Add(-since)
		}
		rows, err := st.HubActions(from)
		if err != nil {
			return r.p.Fail(err)
		}
		list := make([]hubAction, 0, len(rows))
		for _, a := range rows {
			list = append(list, hubActionOf(a))
		}
		cells := r.p.Cells()
		_, err = printer.List(ctx, r.p, printer.Values(list), printer.Listing[hubAction]{
			Headers: []string{"ID", "AT", "WHO", "PROFILE", "WHAT", "TARGET", "OUTCOME", "AUDIT"},
			Cells: func(a *hubAction) []string {
				audit := a.AuditEntries
				if audit == "" {
					audit = a.AuditNote
				}
				return []string{strconv.FormatInt(a.ID, 10), cells.Time(a.At), a.Actor, a.Profile, a.What, a.Target,
					a.Outcome + " " + strconv.Itoa(a.Status), audit}
			},
			Held: true,
			Foot: func(w io.Writer, _ api.Summary, n int) error {
				_, err := io.WriteString(w, plural.Count(n, "write")+" made through serve on this machine\n")
				return err
			},
		})
		if err != nil {
			return r.p.Fail(err)
		}
		return printer.ExitOK
	})
	return c
}

func hubActionOf(a store.HubAction) hubAction {
	return hubAction{ID: a.ID, At: a.At, Actor: a.Actor, KeySHA256: a.KeySHA256, KeyComment: a.KeyComment,
		Principal: a.Principal, KeyID: a.KeyID, OSUser: a.OSUser, Remote: a.Remote, Profile: a.Profile, What: a.What,
		Target: a.Target, Method: a.Method, Path: a.Path, Status: a.Status, Outcome: a.Outcome, Detail: a.Detail,
		AuditType: a.AuditType, AuditEntries: a.AuditEntries, AuditNote: a.AuditNote}
}
