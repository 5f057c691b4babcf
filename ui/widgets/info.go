package widgets

import (
	"time"

	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Info is the line above a view's table, the same in every view: the title
// (decoration: it is in the breadcrumb too, so it gives way first), then
// what the user acts on (counts, filters, a reason: Parts, kept whole or
// dropped as each part says), then where the data stands (State, with the
// Loader's spinner). Lines lays it out with Fit, so it wraps rather than
// cuts a number or a reason in half.
type Info struct {
	Title  string
	Parts  []Part
	State  *page.LoadState // nil: the view says nothing of loading here
	Loader *Loader         // nil: no spinner
}

// Lines renders the info line at width, with now for the state's ages and
// waits. A failure's reason is kept (error style); loading, a cache age or
// a wait is decoration (muted).
func (i Info) Lines(th themes.Theme, width int, now time.Time) []string {
	parts := make([]Part, 0, len(i.Parts)+2)
	parts = append(parts, Deco(th.Title.Render(i.Title)))
	parts = append(parts, i.Parts...)
	if i.State != nil {
		label := i.State.Label(now)
		if i.Loader != nil {
			if v := i.Loader.View(); v != "" {
				label = v + " " + label
			}
		}
		switch {
		case label == "":
		case i.State.Err() != nil:
			parts = append(parts, Keep(th.Error.Render(label)))
		default:
			parts = append(parts, Deco(th.Muted.Render(label)))
		}
	}
	return Fit(width, parts...)
}
