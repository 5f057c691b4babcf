package console

import (
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// SavedViews are the saved views as the command line reads them (the
// views file of api/account, each line read on the command tree): the
// console opens each as its view's query and saves the query of the view
// on screen as a line.
type SavedViews struct {
	Saved map[string]account.ViewQuery
	// Save keeps words (a command line after the program's name, quoted
	// for a shell) under name in the views file; nil: saving is not
	// available (no local files, as over SSH).
	Save func(name, words string) error
	// Where names the file, for messages.
	Where string
}

// forApp is v as the root model holds it.
func (v SavedViews) forApp() app.SavedViews {
	out := app.SavedViews{Saved: make(map[string]page.Query, len(v.Saved)), Where: v.Where}
	for name, q := range v.Saved {
		pq := page.Query{Command: q.Command}
		for _, f := range q.Flags {
			pq.Flags = append(pq.Flags, page.Flag{Name: f.Name, Value: f.Value, Switch: f.Switch})
		}
		for _, f := range q.Globals {
			pq.Globals = append(pq.Globals, page.Flag{Name: f.Name, Value: f.Value})
		}
		out.Saved[name] = pq
	}
	if v.Save != nil {
		out.Save = func(name string, q page.Query) error { return v.Save(name, q.Quoted()) }
	}
	return out
}
