package change

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Text is the plan as a person reads it before confirming, and as the job
// records it ("the text the person read"): `access apply` prints it, the
// console shows it in the confirmation.
func (p *Plan) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plan      %s, read %s UTC\n", sanitize.Line(p.Source), p.MadeAt.UTC().Format("2006-01-02 15:04"))
	for _, r := range p.Rows {
		line := fmt.Sprintf("  %-9s %s  %s  %s -> %s", r.Action, sanitize.Line(r.ProjectName), sanitize.Line(r.Email), dash(r.Direct), dash(r.To))
		if r.Note != "" {
			line += "  (" + sanitize.Line(r.Note) + ")"
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
