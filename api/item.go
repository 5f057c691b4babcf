package api

import (
	"encoding/json"
	"fmt"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

// Item is a listing record beside the server's own bytes for it, so that
// `--json` can write what the server sent (unknown fields included) while
// the table uses the typed record.
type Item[T any] struct {
	Value T
	JSON  json.RawMessage
}

// Values is the records of items, without their JSON.
func Values[T any](items []Item[T]) []T {
	out := make([]T, len(items))
	for i := range items {
		out[i] = items[i].Value
	}
	return out
}

// decodeItems decodes each raw element of a page.
func decodeItems[T any](ep endpoint, key string, raws []json.RawMessage) ([]Item[T], error) {
	items := make([]Item[T], len(raws))
	for i, raw := range raws {
		if err := unmarshalItem(raw, &items[i].Value); err != nil {
			return nil, &Error{Kind: KindMalformed, Endpoint: ep.String(), Status: 200,
				Message: fmt.Sprintf("%s item %d: %s", key, i+1, redact.Truncate(redact.Clean(err.Error()), 200))}
		}
		items[i].JSON = raw
	}
	return items, nil
}
