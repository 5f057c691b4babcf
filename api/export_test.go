package api

import "context"

// The helpers of this package's tests that the external tests (package
// api_test) use too.

// BinOf is binOf for the external tests.
func BinOf(items []RecycleBinEntry, s Summary, err error) (*RecycleBin, error) {
	return binOf(items, s, err)
}

// ItemsOf is itemsOf for the external tests.
func ItemsOf[T any](ctx context.Context, l Listing[T]) ([]Item[T], error) { return itemsOf(ctx, l) }

// UsersOf is usersOf for the external tests.
func UsersOf(users []ProjectUser, s Summary, err error) (*ProjectUsers, error) {
	return usersOf(users, s, err)
}

// DetailsOf is detailsOf for the external tests.
func DetailsOf(items []Item[FileDetail], err error) ([]FileDetail, error) {
	return detailsOf(items, err)
}
