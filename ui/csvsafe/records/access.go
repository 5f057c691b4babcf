package records

import "github.com/vaultdeck/vaultdeck/api/access"

// AccessDiffHeader is what changed between two access snapshots (`access
// diff`, the console's access view's changes tab): its columns, in its
// order, with the project's ID.
func AccessDiffHeader() []string {
	return []string{"CHANGE", "EMAIL", "PROJECT", "FROM", "TO", "PROJECT ID"}
}

// AccessDiff is one grant gained, lost or changed, as the snapshots hold
// it (the screen shows it cleaned; the writer cleans it for a file).
func AccessDiff(c *access.Change) []string {
	return []string{c.Kind, c.Email, c.ProjectName, c.From, c.To, c.ProjectID}
}
