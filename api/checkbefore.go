package api

import (
	"context"
	"fmt"
)

type checkKey struct{}

// WithCheckBeforeSending returns a context whose requests call check before
// each attempt goes out, and are not sent when it fails. A job that records
// its requests in the local store checks there that the store's files are
// still the ones it opened (store.Unchanged): a request whose record would
// be lost must not be sent. A failure before the first attempt is
// ErrNotSent (with check's error): the service received nothing.
func WithCheckBeforeSending(ctx context.Context, check func() error) context.Context {
	return context.WithValue(ctx, checkKey{}, check)
}

// checkBeforeSending runs ctx's check; unsent says no attempt of the call
// may have reached the service yet.
func checkBeforeSending(ctx context.Context, ep endpoint, unsent bool) error {
	check, ok := ctx.Value(checkKey{}).(func() error)
	if !ok || check == nil {
		return nil
	}
	err := check()
	switch {
	case err == nil:
		return nil
	case unsent:
		return canceled(ep, fmt.Errorf("%w: %w", ErrNotSent, err))
	default:
		return canceled(ep, err)
	}
}
