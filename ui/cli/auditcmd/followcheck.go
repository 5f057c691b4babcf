package auditcmd

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// runCheck is `audit follow --check`: a probe of the follow writing o.Out
// (or keeping o.Checkpoint) from the progress that follow recorded in the
// store, as recycle-bin --check answers: one line in the Nagios plugin
// format on stdout, exit 0 (OK), 3 (the lag is past --max-lag) or 1
// (UNKNOWN: nothing recorded, the store unreadable). It asks the service
// nothing, so it needs no token and costs no budget.
func runCheck(ctx context.Context, o *FollowOptions) int {
	p := o.IO
	if code, ok := p.Accept("--check prints the probe's text; it does not combine with --json, --jsonl or --csv", printer.Table); !ok {
		return code
	}
	name := checkpointName(o)
	switch {
	case name == "":
		return p.Usage("--check needs the follow's --out FILE or --checkpoint NAME: the follow it checks")
	case o.MaxLag <= 0:
		return p.Usage("--max-lag must be a positive duration such as 15m (got %s)", o.MaxLag)
	}
	what := "the follow of " + o.Out
	if o.Out == "" {
		what = "the follow checkpointed as " + o.Checkpoint
	}
	unknown := func(format string, a ...any) int {
		fmt.Fprintf(p.Out(), "FOLLOW UNKNOWN - %s | lag=0s;%d;;\n", fmt.Sprintf(format, a...), secs(o.MaxLag))
		return printer.ExitError
	}
	st, err := o.Store()
	if err != nil {
		return unknown("the local database could not be opened: %v", err)
	}
	defer st.Close()
	pr, ok, err := st.FollowProgress(ctx, name)
	if err != nil {
		return unknown("%v", err)
	}
	if !ok {
		return unknown("%s has recorded no progress in this database (is it running, with this VAULTDECK_HOME?)", what)
	}
	now := now(o.Clock)
	line, late := followSummary(pr, now, o.MaxLag)
	fmt.Fprintln(p.Out(), line)
	if late {
		return printer.ExitPartial
	}
	return printer.ExitOK
}

// followSummary is the probe's line and whether the lag passed max.
func followSummary(pr store.FollowProgress, now time.Time, max time.Duration) (string, bool) {
	lag := audit.Lag(pr, now)
	var why []string
	if !pr.FailingSince.IsZero() {
		trouble := "failing"
		if pr.Refused {
			trouble = "the token refused"
		}
		why = append(why, fmt.Sprintf("%s since %s (%s)", trouble, printer.UTCSeconds(pr.FailingSince), plural.Count(pr.Failures, "read")))
	}
	if !pr.SuccessAt.IsZero() {
		why = append(why, "the service answered "+age(now.Sub(pr.SuccessAt))+" ago")
	}
	if !pr.Updated.IsZero() {
		why = append(why, "recorded "+age(now.Sub(pr.Updated))+" ago")
	}
	perf := fmt.Sprintf(" | lag=%ds;%d;; failures=%d;;;", secs(lag), secs(max), pr.Failures)
	tail := ""
	if len(why) > 0 {
		tail = ": " + strings.Join(why, ", ")
	}
	if lag > max {
		return fmt.Sprintf("FOLLOW WARNING - %s behind the log, more than --max-lag %s%s%s", age(lag), age(max), tail, perf), true
	}
	return fmt.Sprintf("FOLLOW OK - %s behind the log%s%s", age(lag), tail, perf), false
}

func secs(d time.Duration) int64 { return int64(d.Round(time.Second) / time.Second) }

// age is a duration as a person reads it: whole seconds.
func age(d time.Duration) string { return max(d, 0).Round(time.Second).String() }
