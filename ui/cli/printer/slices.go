package printer

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/vaultdeck/vaultdeck/api"
)

// Items is a listing already read whole (a batch of file details) as a
// Stream: one page.
func Items[T any](list []api.Item[T]) Stream[T] { return items[T](list) }

type items[T any] []api.Item[T]

func (l items[T]) Raw(_ context.Context, fn func(api.RawItem) error, page func() error) (api.Summary, error) {
	for i := range l {
		if err := fn(api.RawItem{Bytes: bytes.TrimSpace(l[i].JSON)}); err != nil {
			return api.Summary{}, err
		}
	}
	return api.Summary{Total: api.Int(len(l)), HasTotal: true}, page()
}

func (l items[T]) Each(_ context.Context, fn func(*T, api.RawItem) error, page func() error) (api.Summary, error) {
	for i := range l {
		if err := fn(&l[i].Value, api.RawItem{Bytes: bytes.TrimSpace(l[i].JSON)}); err != nil {
			return api.Summary{}, err
		}
	}
	return api.Summary{Total: api.Int(len(l)), HasTotal: true}, page()
}

// Values is a list of the command's own values (a journal's files) as a
// Stream: each item's JSON is its encoding, one line.
func Values[T any](list []T) Stream[T] { return values[T](list) }

type values[T any] []T

func (l values[T]) Raw(ctx context.Context, fn func(api.RawItem) error, page func() error) (api.Summary, error) {
	return l.Each(ctx, func(_ *T, it api.RawItem) error { return fn(it) }, page)
}

func (l values[T]) Each(_ context.Context, fn func(*T, api.RawItem) error, page func() error) (api.Summary, error) {
	for i := range l {
		b, err := json.Marshal(l[i])
		if err != nil {
			return api.Summary{}, err
		}
		if err := fn(&l[i], api.RawItem{Bytes: b}); err != nil {
			return api.Summary{}, err
		}
	}
	return api.Summary{Total: api.Int(len(l)), HasTotal: true}, page()
}
