package matters

// A run (Delete, Restore) keeps its receipt as it goes: one transaction per
// request, so the receipt of an interrupted run says exactly what was sent.
// Texts it records (a stopped run's note, Incomplete) are kept as they came;
// every interface cleans them on the way to a terminal (ui/sanitize), as it
// does everything else it shows.

import (
	"context"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
)

// Deps is what a run needs from outside.
type Deps struct {
	Service  Service
	Store    Receipts // a *store.Store outside tests
	Profile  string
	Endpoint string // the client's base URL, for the receipt
	// Who, when set, asks whoami for the e-mail of the account behind the
	// token (free: no budget), so the receipt names who acted, not only
	// how the token was found (ReceiptBy). When it fails the receipt
	// names the profile alone and the run goes on: the deletion itself
	// will meet a token that does not work.
	Who func(ctx context.Context) (string, error)
}

// by is what the receipt records as who acted.
func (d Deps) by(ctx context.Context) string {
	if d.Who == nil {
		return d.Profile
	}
	email, err := d.Who(ctx)
	if err != nil {
		return d.Profile
	}
	return ReceiptBy(email, d.Profile)
}

// ReceiptBy is the account whoami gave and how its token was found:
// "m.castellano@harrowgate-law.com (profile work)", or "(VAULTDECK_TOKEN)"
// when the variable supplied it; how alone when whoami gave no e-mail.
func ReceiptBy(email, how string) string {
	email = strings.TrimSpace(email)
	if email == "" {
		return how
	}
	switch {
	case how == "" || how == "(no profile)":
		return email
	case strings.HasPrefix(how, "("):
		return email + " " + strings.Replace(how, ")", "", 1) + ")"
	}
	return email + " (profile " + how + ")"
}

// Watch is how a caller follows a run: progress after each request, and
// each wait (budget, Retry-After) before one.
type Watch struct {
	Progress func(Progress)
	Wait     func(api.Wait)
}

// Source names the input file on the receipt.
type Source struct {
	Name, SHA256 string
}

// Delete sends the plan and records it. The receipt id is returned even
// when the run stopped early; err is only for a receipt that could not be
// started (nothing was sent then).
func Delete(ctx context.Context, d Deps, src Source, plan *Plan, w Watch) (int64, *Report, error) {
	// A damaged file may still take a new receipt's rows while losing
	// them, or refuse them halfway through the run: either way the
	// service would delete what no receipt can undo. Nothing is sent.
	if err := d.Store.Check(); err != nil {
		return 0, nil, err
	}
	id, err := d.Store.StartReceipt(stamp(ctx, store.Receipt{Action: "delete", Profile: d.by(ctx), Endpoint: d.Endpoint,
		FileName: src.Name, FileSHA256: src.SHA256, Pairs: len(plan.Pairs)}))
	if err != nil {
		return 0, nil, &ReceiptError{err}
	}
	rep := SendDeletions(ctx, d.Service, plan, hooks(d.Store, id, w))
	return id, rep, finish(d.Store, id, rep)
}

// stamp names r's actor beyond the token's owner (the local account, a
// serve session's key) from the one place write jobs take theirs.
func stamp(ctx context.Context, r store.Receipt) store.Receipt {
	r.ActorOSUser, r.ActorKey = writejob.Actor(ctx)
	return r
}

func hooks(st Receipts, id int64, w Watch) Hooks {
	return Hooks{
		Sending:  func(_ int, outs []Outcome) error { return st.AddReceiptItems(id, Items(outs)) },
		Batch:    func(_ int, outs []Outcome) error { return st.AddReceiptItems(id, Items(outs)) },
		Progress: w.Progress,
		Wait:     w.Wait,
		Check:    st.Unchanged,
	}
}

// finish writes the never-sent pairs and the run's status.
func finish(st Receipts, id int64, rep *Report) error {
	var unsent []Outcome
	for _, o := range rep.Outcomes {
		if o.Result == ResultNotSent && o.Request == 0 {
			unsent = append(unsent, o)
		}
	}
	status, note := store.ReceiptComplete, ""
	switch {
	case rep.Canceled:
		status, note = store.ReceiptCanceled, "canceled; lines sent: "+rep.LinesSent()
	case rep.Err != nil:
		status, note = store.ReceiptStopped, rep.Err.Error()
	}
	return st.FinishReceipt(id, status, note, Items(unsent))
}

// Items converts outcomes to receipt rows.
func Items(outs []Outcome) []store.ReceiptItem {
	items := make([]store.ReceiptItem, len(outs))
	for i, o := range outs {
		items[i] = store.ReceiptItem{Line: o.Line, ClientID: o.ClientID, MatterID: o.MatterID, Result: string(o.Result),
			Code: o.Code, Detail: o.Detail, Request: o.Request}
	}
	return items
}

// ReceiptProfile is what a receipt names as the credentials used: the
// stored profile, unless VAULTDECK_TOKEN (which overrides every stored
// token) was set, which is then named instead, since that is what acted.
// profile is "" when no stored profile is in use; envToken is the
// variable's value (only its presence matters; it is never recorded).
func ReceiptProfile(profile, envToken string) string {
	switch {
	case strings.TrimSpace(envToken) == "" && profile != "":
		return profile
	case strings.TrimSpace(envToken) == "":
		return "(no profile)"
	case profile == "":
		return "(VAULTDECK_TOKEN)"
	default:
		return "(VAULTDECK_TOKEN) over profile " + profile
	}
}
