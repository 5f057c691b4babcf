package page

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// OpenPerson opens `:person EMAIL` (the person view, which the views that
// name people do not import): the one thing P does on a row that names a
// person, in the bin, a project's users, the audit log and the access
// review. A row that names nobody says so.
func OpenPerson(email string) tea.Cmd {
	email = strings.TrimSpace(email)
	if email == "" || !strings.Contains(email, "@") {
		return Status("this row names no person")
	}
	return OpenRoute("person", email)
}

// ProjectName is a project known by its ID and name only (the access
// snapshot's): a page.Open to the project route may carry it as its
// Record, and the page looks up what else it shows (the file count)
// rather than saying 0.
type ProjectName struct{ ID, Name string }
