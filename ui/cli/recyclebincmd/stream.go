package recyclebincmd

import (
	"context"

	"github.com/vaultdeck/vaultdeck/api"
)

// shownFields is the bin's listing with Each decoding only what the table
// and the CSV show (api.DecodeListed): a whole entry's other strings and
// times are most of a full decode's cost. Raw is the listing's own.
type shownFields struct {
	api.Listing[api.RecycleBinEntry]
}

func (l shownFields) Each(ctx context.Context, fn func(*api.RecycleBinEntry, api.RawItem) error, page func() error) (api.Summary, error) {
	var e api.RecycleBinEntry
	return l.Raw(ctx, func(it api.RawItem) error {
		if err := api.DecodeListed(it.Bytes, &e); err != nil {
			return err
		}
		return fn(&e, it)
	}, page)
}
