package uploadview

import (
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// What the page says around the upload besides the counts: before sending,
// the files of one name from different folders and what the chosen mode
// does with them; after, every file that was not simply uploaded (skipped,
// replaced, renamed, refused, failed, unproven), by path, so "1 skipped"
// never leaves the user asking which.

// sameNameLines are the plan's names carried by several files, with what
// mode does to them, for the summary and the confirmation.
func sameNameLines(same []upload.SameName, mode api.DuplicateMode) []string {
	out := make([]string, 0, len(same))
	for _, g := range same {
		out = append(out, sanitize.Line(fmt.Sprintf("%s in %s (%s): %s", g.Name, plural.Count(len(g.Files), "folder"), g.Paths(), g.Effect(mode))))
	}
	return out
}

// outcomeLines are the files of a finished upload that were not simply
// uploaded, one line each, in the order the CLI's table gives them.
func outcomeLines(o upload.Outcome) []string {
	var out []string
	add := func(word string, files []store.JournalFile, detail func(store.JournalFile) string) {
		for _, f := range files {
			path := f.Path
			if path == "" {
				path = f.Local
			}
			out = append(out, sanitize.Line(word+"  "+path+": "+detail(f)))
		}
	}
	reason := func(f store.JournalFile) string { return f.Reason }
	add("replaced", o.Replaced, reason)
	add("renamed", o.Renamed, func(f store.JournalFile) string { return "kept as " + f.ServiceName })
	add("skipped", o.Skipped, reason)
	add("refused", o.Refused, reason)
	add("failed", o.Failed, reason)
	add("unproven", o.Unproven, reason)
	return out
}

// runsHint names the command that lists every file of the runs.
func runsHint(ids []int64) string {
	if len(ids) == 0 {
		return ""
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return "every file's outcome: vaultdeck uploads " + strings.Join(s, ", vaultdeck uploads ")
}
