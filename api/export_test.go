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
