package auditview

import (
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// route is what `:audit ARGS` asks for: the grammar is the job's
// (audit.Route), shared with the views that open this one.
type route = audit.Route

// parseRoute reads the argument of `:audit`, stripped of what a terminal
// would act on, ages counted back from now.
func parseRoute(arg string, now time.Time) (route, error) {
	return audit.ParseRoute(sanitize.Line(arg), now)
}
