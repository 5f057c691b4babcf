package records

import (
	"strconv"
	"time"

	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
)

// RunFileHeader is one upload run's files (`uploads RUN`, the console's
// upload page once the upload is done): the page's columns, in its order
// (the path uploaded, the result, its detail), then what the screen
// leaves out: the local file, the file's ID, its size in bytes, and the
// delete job (an undo) that deleted it or left it alone since, with when
// (RFC 3339, UTC; empty when not known).
func RunFileHeader() []string {
	return []string{"path", "result", "detail", "local file", "file id", "size", "undo job", "undone at"}
}

// RunFile is one journaled file's record: its result as upload.RunResult
// words it (uploaded, renamed, replaced, re-uploaded, skipped, refused,
// failed, not sent, unproven; deleted, gone, unknown after an undo) with
// its detail. u is what the run's undos did (nil: none read).
func RunFile(f *store.JournalFile, u *upload.Undone) []string {
	word, detail, m := upload.RunResult(*f, u)
	job, at := "", ""
	if m != nil {
		job = strconv.FormatInt(m.Job, 10)
		if !m.At.IsZero() {
			at = m.At.UTC().Format(time.RFC3339)
		}
	}
	return []string{RunPath(f), word, detail, f.Local, f.FileID, strconv.FormatInt(f.Size, 10), job, at}
}

// RunPath is the path a journaled file was uploaded as (file_paths), or
// its name when it had none.
func RunPath(f *store.JournalFile) string {
	if f.Path != "" {
		return f.Path
	}
	return f.Name
}
