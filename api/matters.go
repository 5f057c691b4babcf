package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// DeleteMatters soft-deletes matters by firm identifiers
// (DELETE /api/v2/matters). More than 10,000 pairs go in several requests;
// each result list is merged in input order. A per-pair failure is in
// Errors, not an error. A batch the server rejects (400) is an *Error with
// Batch set; batches sent before it stay deleted and are in the result
// returned alongside the error.
//
// Known limit: this method checks no duplicates across its batches: a pair
// repeated in two of them is not reported as duplicate_pair (the server sees
// the batches separately); the second one lands in already_absent, which is
// still correct. Matter files go through api/matters, whose plan checks
// the whole file first and sends no repeat (matters.NewPlan).
func (c *Client) DeleteMatters(ctx context.Context, pairs []MatterPair) (*MatterDeletion, error) {
	out := &MatterDeletion{Deleted: []MatterPair{}, AlreadyAbsent: []MatterPair{}, Errors: []MatterError{}}
	for start := 0; start < len(pairs); start += MaxPairs {
		var r MatterDeletion
		if err := c.matterCall(ctx, epDeleteMatters, pairs[start:min(start+MaxPairs, len(pairs))], &r); err != nil {
			return out, err
		}
		out.Deleted = append(out.Deleted, r.Deleted...)
		out.AlreadyAbsent = append(out.AlreadyAbsent, r.AlreadyAbsent...)
		out.Errors = append(out.Errors, r.Errors...)
	}
	return out, nil
}

// UpsertMatters creates or restores matters (POST /api/v2/matters), in
// batches of 10,000 merged in input order. It is never repeated
// automatically, since the spec does not call a repeat safe.
func (c *Client) UpsertMatters(ctx context.Context, pairs []MatterPair) (*MatterUpsert, error) {
	out := &MatterUpsert{Created: []MatterPair{}, Restored: []MatterPair{}, Unchanged: []MatterPair{}, Errors: []MatterError{}}
	for start := 0; start < len(pairs); start += MaxPairs {
		var r MatterUpsert
		if err := c.matterCall(ctx, epUpsertMatters, pairs[start:min(start+MaxPairs, len(pairs))], &r); err != nil {
			return out, err
		}
		out.Created = append(out.Created, r.Created...)
		out.Restored = append(out.Restored, r.Restored...)
		out.Unchanged = append(out.Unchanged, r.Unchanged...)
		out.Errors = append(out.Errors, r.Errors...)
	}
	return out, nil
}

func (c *Client) matterCall(ctx context.Context, ep endpoint, pairs []MatterPair, v any) error {
	payload, err := json.Marshal(struct {
		Matters []MatterPair `json:"matters"`
	}{pairs})
	if err != nil {
		return fmt.Errorf("encoding matters: %w", err)
	}
	resp, red, err := c.send(ctx, call{ep: ep, path: "/api/v2/matters",
		body: func() (io.ReadCloser, string, func() error, error) {
			return io.NopCloser(bytes.NewReader(payload)), "application/json", nil, nil
		}})
	if err != nil {
		return err
	}
	return c.decodeJSON(resp, ep, red, v)
}

// MatterPair identifies a matter by the firm's own identifiers.
type MatterPair struct {
	ClientID string `json:"client_id"`
	MatterID string `json:"matter_id"`
}

// MatterError is a per-pair failure; it echoes the raw, untrimmed values.
type MatterError struct {
	ClientID string `json:"client_id"`
	MatterID string `json:"matter_id"`
	Error    string `json:"error"`
	Detail   string `json:"detail"`
}

// MatterDeletion is the 200 response of DELETE /api/v2/matters.
type MatterDeletion struct {
	Deleted       []MatterPair  `json:"deleted"`
	AlreadyAbsent []MatterPair  `json:"already_absent"`
	Errors        []MatterError `json:"errors"`
}

// MatterUpsert is the 200 response of POST /api/v2/matters. Like deletion,
// it answers 200 with per-pair failures in Errors.
type MatterUpsert struct {
	Created   []MatterPair  `json:"created"`
	Restored  []MatterPair  `json:"restored"`
	Unchanged []MatterPair  `json:"unchanged"`
	Errors    []MatterError `json:"errors"`
}
