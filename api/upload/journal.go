package upload

import (
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// Journal is what the upload job asks of persistence: exactly the calls it
// makes, so the job can be tested with a fake and store never has to know
// about the job. *store.Store satisfies it; the job keeps store's record
// types (store is the ground floor and imports no job).
type Journal interface {
	CheckJournal() error
	// Unchanged says when the database's files are no longer the ones the
	// store opened (store.ErrChanged): asked before each batch is sent, so
	// no request goes out whose record would be lost.
	Unchanged() error
	RecordRun(r store.UploadRun, refused []store.JournalFile, batches [][]store.JournalFile, l store.Lease) (int64, []store.JournalBatch, error)
	StartBatch(batchID int64, owner string, began time.Time, files []store.JournalFile) error
	CompleteBatch(batchID int64, owner string, outcomes []store.FileOutcome, batchErr string) error
	ClaimBatch(batchID int64, l store.Lease) error
	RenewLeases(owner string, until time.Time) error
	ReleaseBatch(batchID int64, owner, batchErr string) error
	UnstartBatch(batchID int64, owner string, began time.Time) error
	UnfinishedBatches(profile string) ([]store.JournalBatch, error)
	UnprovenFiles(profile string) ([]store.JournalFile, error)
	MarkReplaced(ids []string) error
	ProjectFileIDs(projectID string) ([]string, error)
	// What file details said of uploaded files (details.go), and the live
	// files of a name a re-upload must not supersede (reupload.go).
	SetFileDetails(notes []store.FileDetailNote) error
	Namesakes(projectID, name string) ([]store.JournalFile, error)
}

var _ Journal = (*store.Store)(nil)
