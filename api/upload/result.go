package upload

import (
	"fmt"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// Result is one journaled file's outcome in a word, and the detail that
// goes with it (a file ID, a new name, a reason, what to run), as `vaultdeck
// uploads RUN` and the console's report after an upload say it. A superseded
// file is "replaced" whatever processing status its old record carried.
func Result(f store.JournalFile) (word, detail string) {
	switch f.State {
	case store.FileUploaded:
		switch {
		case !f.DeletedAt.IsZero():
			return "replaced", fmt.Sprintf("%s superseded %s by a later upload of the name %s", f.FileID, f.DeletedAt.UTC().Format(time.DateTime), f.Name)
		case f.ServiceName != "":
			return "renamed", f.FileID + " as " + f.ServiceName
		}
		return "uploaded", f.FileID
	case store.FileReplaced:
		return "re-uploaded", f.FileID + " was re-uploaded later (R); the newer upload is tracked"
	case store.FilePending:
		if f.Reason != "" { // sent, and its answer did not prove it (match)
			return store.FileUnproven, f.Reason
		}
		return "not sent", "run `vaultdeck upload --resume` to send it"
	}
	return f.State, f.Reason
}
