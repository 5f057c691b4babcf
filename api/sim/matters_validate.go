package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// validationError is one entry of validation_errors. loc holds field names
// (string) and array indexes (int); the offending value is never echoed, so
// an invalid body cannot smuggle its content back into logs or terminals.
type validationError struct {
	Loc  []any  `json:"loc"`
	Type string `json:"type"`
	Msg  string `json:"msg"`
}

type batchError struct {
	Error            string            `json:"error"`
	Detail           string            `json:"detail"`
	ValidationErrors []validationError `json:"validation_errors,omitempty"`
}

// rawPair is a syntactically valid request pair, untrimmed.
type rawPair struct{ Client, Matter string }

var validationMsgs = map[string]string{
	"json_invalid":    "Body is not valid JSON",
	"dict_type":       "Input should be an object",
	"list_type":       "Input should be an array",
	"string_type":     "Input should be a string",
	"missing":         "Field required",
	"extra_forbidden": "Extra inputs are not permitted",
	"too_short":       "List should have at least 1 item",
}

func vErr(typ string, loc ...any) validationError {
	if loc == nil {
		loc = []any{}
	}
	return validationError{Loc: loc, Type: typ, Msg: validationMsgs[typ]}
}

// parsePairs validates a matters request body ({"matters":[{client_id,
// matter_id}]}) shared by DELETE and POST /api/v2/matters. Order of checks:
// JSON syntax and top-level shape; then the matters array (when it is
// missing or not a non-empty array, items cannot be checked); then the pair
// count (too_many_items wins over every other error: the batch is refused on
// size alone); then every item. Unknown top-level fields and all item errors
// are collected together so a caller can fix a body in one round trip.
func parsePairs(body []byte) ([]rawPair, *batchError) {
	invalid := func(errs ...validationError) *batchError {
		return &batchError{Error: "invalid_request", Detail: "The request body is invalid; see validation_errors", ValidationErrors: errs}
	}
	if !json.Valid(body) {
		return nil, invalid(vErr("json_invalid"))
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, invalid(vErr("dict_type"))
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &top); err != nil {
		return nil, invalid(vErr("dict_type"))
	}
	var errs []validationError
	for _, k := range sortedKeys(top) {
		if k != "matters" {
			errs = append(errs, vErr("extra_forbidden", k))
		}
	}
	raw, ok := top["matters"]
	var items []json.RawMessage
	switch {
	case !ok:
		errs = append(errs, vErr("missing", "matters"))
	case !isKind(raw, '['):
		errs = append(errs, vErr("list_type", "matters"))
	default:
		if err := json.Unmarshal(raw, &items); err != nil {
			errs = append(errs, vErr("list_type", "matters"))
		} else if len(items) == 0 {
			errs = append(errs, vErr("too_short", "matters"))
		}
	}
	if len(items) == 0 {
		return nil, invalid(errs...)
	}
	if len(items) > MaxPairs {
		return nil, &batchError{Error: "too_many_items",
			Detail: fmt.Sprintf("A request may hold at most %s; this one holds %d", plural.Count(MaxPairs, "pair"), len(items))}
	}
	pairs := make([]rawPair, len(items))
	for i, it := range items {
		if !isKind(it, '{') {
			errs = append(errs, vErr("dict_type", "matters", i))
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(it, &obj); err != nil {
			errs = append(errs, vErr("dict_type", "matters", i))
			continue
		}
		for _, field := range []string{"client_id", "matter_id"} {
			v, ok := obj[field]
			var sv string
			switch {
			case !ok:
				errs = append(errs, vErr("missing", "matters", i, field))
			case !isKind(v, '"') || json.Unmarshal(v, &sv) != nil:
				// null lands here too: a null is a wrong type, not a missing field.
				errs = append(errs, vErr("string_type", "matters", i, field))
			case field == "client_id":
				pairs[i].Client = sv
			default:
				pairs[i].Matter = sv
			}
		}
		for _, k := range sortedKeys(obj) {
			if k != "client_id" && k != "matter_id" {
				errs = append(errs, vErr("extra_forbidden", "matters", i, k))
			}
		}
	}
	if len(errs) > 0 {
		return nil, invalid(errs...)
	}
	return pairs, nil
}

func isKind(raw json.RawMessage, first byte) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == first
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
