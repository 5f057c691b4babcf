package matters

import "github.com/vaultdeck/vaultdeck/store"

// Receipts is what the matter job asks of persistence: exactly the calls
// it makes, so a run can be tested with a fake and store never has to know
// about the job. *store.Store satisfies it; the job keeps store's record
// types (store is the ground floor and imports no job).
type Receipts interface {
	// Check proves the whole file readable before a restore trusts it: a
	// damaged file must never read as "nothing to restore".
	Check() error
	// Unchanged says when the database's files are no longer the ones the
	// store opened (store.ErrChanged): asked before each request, so none
	// goes out whose receipt would be lost.
	Unchanged() error
	StartReceipt(r store.Receipt) (int64, error)
	AddReceiptItems(id int64, items []store.ReceiptItem) error
	FinishReceipt(id int64, status, note string, unsent []store.ReceiptItem) error
	Receipts() ([]store.Receipt, error)
	Receipt(id int64) (store.Receipt, error)
	ReceiptItems(id int64, result string, fn func(store.ReceiptItem) error) error
}

var _ Receipts = (*store.Store)(nil)
