package records

import (
	"strconv"

	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
)

// RunFileHeader is one upload run's files (`uploads RUN`, the console's
// upload page once the upload is done): the page's columns, in its order
// (the path uploaded, the result, its detail), then what the screen
// leaves out: the local file, the file's ID and its size in bytes.
func RunFileHeader() []string {
	return []string{"path", "result", "detail", "local file", "file id", "size"}
}

// RunFile is one journaled file's record: its result as upload.Result
// words it (uploaded, renamed, replaced, re-uploaded, skipped, refused,
// failed, not sent, unproven) with its detail.
func RunFile(f *store.JournalFile) []string {
	word, detail := upload.Result(*f)
	return []string{RunPath(f), word, detail, f.Local, f.FileID, strconv.FormatInt(f.Size, 10)}
}

// RunPath is the path a journaled file was uploaded as (file_paths), or
// its name when it had none.
func RunPath(f *store.JournalFile) string {
	if f.Path != "" {
		return f.Path
	}
	return f.Name
}
