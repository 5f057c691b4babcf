package change

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Text is the plan as a person reads it before confirming, and as the job
// records it ("the text the person read"): `access apply` prints it, the
// console shows it in the confirmation. clean is the interface's cleaner of
// the service's strings (ui/sanitize.Line: api is below ui and leaves the
// bytes a terminal is sent to the one that sends them).
func (p *Plan) Text(clean func(string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "plan      %s, read %s UTC\n", clean(p.Source), p.MadeAt.UTC().Format("2006-01-02 15:04"))
	for _, r := range p.Rows {
		line := fmt.Sprintf("  %-9s %s  %s  %s -> %s", r.Action, clean(r.ProjectName), clean(r.Email), dash(r.Direct), dash(r.To))
		if r.Note != "" {
			line += "  (" + clean(r.Note) + ")"
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// PlanNow is the plan of wants the caller already knows (the console's
// marked rows) made against the service now: the listing, the users of
// each project the wants touch, then Make, as `access plan` does after
// reading its source.
func PlanNow(ctx context.Context, c API, source string, now time.Time, wants []Want, leaving []string) (*Plan, error) {
	projects, _, err := Listing(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("reading the projects: %w", err)
	}
	if err := Read(ctx, c, projects, wants, nil); err != nil {
		return nil, err
	}
	return Make(source, now, projects, wants, leaving)
}
