package api

import "context"

// The name of what a write acts on, carried with its request: the record of
// writes made through serve (ui/serve/record.go) sees only a request's
// method and path, where a project is an id; the view that sends the
// write knows the name the person read and typed, so it says so here.

type subjectKey struct{}

// WithSubject names, in ctx, what the writes sent with it act on (a
// project's name); "" leaves ctx as it is.
func WithSubject(ctx context.Context, name string) context.Context {
	if name == "" {
		return ctx
	}
	return context.WithValue(ctx, subjectKey{}, name)
}

// SubjectOf is ctx's name of what its writes act on ("" when none).
func SubjectOf(ctx context.Context) string {
	s, _ := ctx.Value(subjectKey{}).(string)
	return s
}
