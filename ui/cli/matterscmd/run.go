package matterscmd

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// confirmCount is the typed confirmation of a destructive run: on a
// terminal, the person types the number of pairs; otherwise --yes is needed.
func (o *Options) confirmCount(n int, verb string, yes, stdinIsData bool) (bool, int) {
	if yes {
		return true, 0
	}
	if stdinIsData || !o.IO.StdinIsTerminal() {
		o.IO.Note("stdin is not a terminal, so nobody can confirm: add --yes to %s %s without typing %s number", verb, plural.Count(n, "pair"), plural.Verb(n, "its", "their"))
		return false, printer.ExitUsage
	}
	fmt.Fprintf(o.IO.Err(), "Type %d (the number of pairs) to %s them, anything else to stop: ", n, verb)
	line, _ := bufio.NewReader(o.IO.In()).ReadString('\n')
	if strings.TrimSpace(strings.ReplaceAll(line, ",", "")) != strconv.Itoa(n) {
		o.IO.Note("not confirmed; nothing was sent")
		return false, printer.ExitError
	}
	return true, 0
}

func displayName(name string) string {
	if name == "-" {
		return "(stdin)"
	}
	return filepath.Base(name)
}

func perMinute(l api.Limits) int {
	if l.Matters < 0 {
		return 1 << 30 // limits off: no waiting implied
	}
	return l.Matters
}

func (o *Options) deps(c *api.Client, st *store.Store) matters.Deps {
	stored := ""
	if conn, err := o.Connect(); err == nil {
		stored = conn.Conn.Profile
	}
	// the receipt names what acted: VAULTDECK_TOKEN overrides every
	// stored token (and without a token source it is the only one)
	prof := matters.ReceiptProfile(stored, o.Getenv("VAULTDECK_TOKEN"))
	return matters.Deps{Service: c, Store: st, Profile: prof, Endpoint: c.Base(), Who: func(ctx context.Context) (string, error) {
		w, err := c.WhoAmI(ctx)
		if err != nil {
			return "", err
		}
		return w.Email, nil
	}}
}

// mattersWatch prints one stderr line per request, and each wait of a second or
// more (the client-matters budget, a Retry-After), so a long run does not
// look hung; Ctrl-C during a wait drops the waiting request at once.
func (o *Options) mattersWatch() matters.Watch {
	return matters.Watch{Progress: o.progress, Wait: func(w api.Wait) {
		if w.For >= time.Second {
			fmt.Fprintf(o.IO.Err(), "vaultdeck: %s (Ctrl-C stops here; nothing of this request was sent yet)\n", w)
		}
	}}
}

// progress is one stderr line per request, for people and logs alike.
func (o *Options) progress(p matters.Progress) {
	fmt.Fprintf(o.IO.Err(), "request %d/%d: %d of %s sent\n", p.Request, p.Requests, p.Sent, plural.Count(p.ToSend, "pair"))
}

// earlier says what this machine's earlier deletions of the same file
// mean for running it again (matters.Earlier); a receipts database that
// cannot be read is said, not taken for "no earlier run".
func (o *Options) earlier(sha string) ([]string, error) {
	st, err := o.Store()
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return matters.Earlier(st, sha)
}

// printPreview shows what a run would do on stdout, as the format asks
// (the plan as JSON or as text).
// A dry run whose standing could not be read exits 1: it could not say
// what it is for.
func (o *Options) printPreview(name string, f *matters.File, plan *matters.Plan, known *matters.Known, lookErr error) int {
	earlier, earlierErr := o.earlier(f.SHA256)
	code := o.IO.Done(o.IO.Show(printer.Result{
		JSON: func() (any, error) {
			rej := plan.Rejected()
			if rej == nil {
				rej = []matters.Outcome{}
			}
			m := map[string]any{
				"file": displayName(name), "sha256": f.SHA256, "encoding": f.Encoding, "format": f.Format, "separator": string(f.Separator), "header": f.Header,
				"ignored_columns": orEmpty(f.Ignored), "pairs": len(plan.Pairs), "to_send": len(plan.Send),
				"requests": plan.Requests(), "min_seconds": plan.MinDuration().Seconds(), "refused": rej,
				"earlier": orEmpty(earlier), "earlier_error": errString(earlierErr),
			}
			for k, v := range standingJSON(known, lookErr) {
				m[k] = v
			}
			return m, nil
		},
		Text: func(w io.Writer) error {
			o.previewText(w, name, f, plan, earlier, earlierErr, known, lookErr, true)
			return printStanding(w, known) // as a listing's table, a write error is the printer's to say
		},
	}))
	if code == printer.ExitOK && lookErr != nil {
		return o.IO.Fail(lookErr)
	}
	return code
}

// sayPreview shows what a run would do on stderr, before it asks to
// confirm it: the text, whatever the format (stdout is the run's report).
func (o *Options) sayPreview(name string, f *matters.File, plan *matters.Plan, known *matters.Known, lookErr error) {
	earlier, earlierErr := o.earlier(f.SHA256)
	o.previewText(o.IO.Err(), name, f, plan, earlier, earlierErr, known, lookErr, false)
}

// previewText is a run's plan for people; listRefused adds the table of
// the pairs refused.
func (o *Options) previewText(w io.Writer, name string, f *matters.File, plan *matters.Plan, earlier []string, earlierErr error, known *matters.Known, lookErr error, listRefused bool) {
	hdr := "no header (first two columns)"
	if f.Header {
		hdr = "header"
	}
	fmt.Fprintf(w, "file      %s (%s, %s, %s)\n", sanitize.Line(displayName(name)), f.Encoding, f.Describe(), hdr)
	if len(f.Ignored) > 0 {
		fmt.Fprintf(w, "ignored   columns %s\n", sanitize.Line(strings.Join(f.Ignored, ", ")))
	}
	fmt.Fprintf(w, "pairs     %d\n", len(plan.Pairs))
	fmt.Fprintf(w, "to send   %d in %s of at most %s\n", len(plan.Send), plural.Count(plan.Requests(), "request"), plural.Count(api.MaxPairs, "pair"))
	if n := plan.RejectedCount(); n > 0 {
		var parts []string
		for _, code := range []string{matters.CodeInvalidClientID, matters.CodeInvalidMatterID, matters.CodeDuplicatePair} {
			if c := plan.CodeCounts()[code]; c > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", code, c))
			}
		}
		fmt.Fprintf(w, "refused   %d, not sent (%s)\n", n, strings.Join(parts, ", "))
	}
	for _, e := range earlier {
		fmt.Fprintf(w, "earlier   %s\n", sanitize.Line(e))
	}
	if earlierErr != nil {
		fmt.Fprintf(w, "earlier   not known: %s\n", sanitize.Line(earlierErr.Error()))
	}
	standingSummary(w, known, lookErr)
	if o.Limits.Matters < 0 {
		fmt.Fprintf(w, "min time  no client-side rate limit\n")
	} else {
		fmt.Fprintf(w, "min time  %s at %s a minute, shared with everything else using this token\n", minTime(plan.MinDuration()), plural.Count(plan.PerMinute, "request"))
	}
	if listRefused && plan.RejectedCount() > 0 {
		fmt.Fprintln(w)
		printOutcomes(w, plan.Rejected())
	}
}

func minTime(d time.Duration) string {
	if d == 0 {
		return "under a minute"
	}
	return "at least " + d.String()
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// quoteBlank shows an identifier with surrounding or only whitespace in
// quotes, so "  " does not look like a missing cell.
func quoteBlank(s string) string {
	if s == "" || strings.TrimSpace(s) != s {
		return strconv.Quote(s)
	}
	return s
}

// report prints a run's outcomes and summary and picks the exit status:
// 3 when the receipt could not record everything (named, with what to do),
// else 1 when the run failed before any request was answered, 3 when any
// pair is in errors, was not sent or is unproven, 0 otherwise.
func (o *Options) report(id int64, rep *matters.Report, err error, undo string) int {
	if rep == nil {
		if matters.IsReceiptError(err) { // a receipt write failure is exit 3 in every command
			fmt.Fprintf(o.IO.Err(), "vaultdeck %s: %s\n", o.IO.Command(), sanitize.Line(err.Error()))
			return printer.ExitPartial
		}
		return o.IO.Fail(err)
	}
	// A write error is the printer's to say (Finish), after the lines below.
	_ = o.IO.Show(printer.Result{
		WriteJSON: func(w io.Writer) error { return writeReportJSON(w, id, rep) },
		Text:      func(w io.Writer) error { return printOutcomes(w, rep.Outcomes) },
	})
	fmt.Fprintf(o.IO.Err(), "%s; receipt %d (vaultdeck matters receipt %d", matters.CountsText(rep.Counts()), id, id)
	if rep.Counts()[matters.ResultDeleted] > 0 && undo != "" {
		fmt.Fprintf(o.IO.Err(), "; undo: vaultdeck %s %d", undo, id)
	}
	fmt.Fprintln(o.IO.Err(), ")")
	incomplete := matters.Incomplete(id, rep, err)
	if incomplete != "" {
		fmt.Fprintf(o.IO.Err(), "vaultdeck %s: %s\n", o.IO.Command(), sanitize.Line(incomplete))
	}
	if rep.Canceled {
		fmt.Fprintf(o.IO.Err(), "vaultdeck %s: canceled between requests; lines sent: %s; the others were not sent\n", o.IO.Command(), rep.LinesSent())
	}
	if rep.Err != nil {
		fmt.Fprintf(o.IO.Err(), "vaultdeck %s: stopped: %s; lines sent: %s\n", o.IO.Command(), sanitize.Line(rep.Err.Error()), rep.LinesSent())
		if rep.Sent == 0 && incomplete == "" {
			return printer.ExitError
		}
	}
	if rep.Errors() || incomplete != "" {
		return printer.ExitPartial
	}
	return printer.ExitOK
}

// errString is an error's sentence for --json, "" for none.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
