package api

import (
	"bytes"
	"context"
	"io"
)

// A body copy lets a caller keep a response body exactly as received (the
// console's response cache) without encoding the decoded value again: for a
// 66 MB recycle bin that re-encoding cost a third of a second and held
// 128 MB. The copy is bounded: a body over the limit is not kept at all.

type bodyCopyKey struct{}

type bodyCopy struct {
	limit int
	keep  func(body []byte)
}

// WithBodyCopy returns a context under which a successfully decoded JSON
// response body of at most limit bytes is handed to keep, unchanged, after
// decoding (for an enveloped answer, {"response":{"content":...}}, the
// content as received). keep runs in the caller's goroutine (the request's).
func WithBodyCopy(ctx context.Context, limit int, keep func(body []byte)) context.Context {
	return context.WithValue(ctx, bodyCopyKey{}, bodyCopy{limit: limit, keep: keep})
}

// copyingReader tees what is read into buf until limit is passed.
type copyingReader struct {
	r     io.Reader
	buf   bytes.Buffer
	limit int
	over  bool
}

func (c *copyingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if !c.over && n > 0 {
		if c.buf.Len()+n > c.limit {
			c.over = true
			c.buf = bytes.Buffer{} // free what was copied: it will not be kept
		} else {
			c.buf.Write(p[:n])
		}
	}
	return n, err
}

// tapBody wraps r when ctx asks for a copy; done hands the copy over after
// a successful decode. Without a request for a copy both are pass-throughs.
func tapBody(ctx context.Context, r io.Reader) (io.Reader, func()) {
	bc, ok := ctx.Value(bodyCopyKey{}).(bodyCopy)
	if !ok || bc.keep == nil {
		return r, func() {}
	}
	cr := &copyingReader{r: r, limit: bc.limit}
	return cr, func() {
		// the rest of the body (after the JSON value) is drained by Close;
		// what the decoder consumed is the value as received
		if !cr.over {
			bc.keep(cr.buf.Bytes())
		}
	}
}

// OfferBody hands body to the WithBodyCopy consumer of ctx, if any and if
// within its limit. For backends that do not decode HTTP (test fakes, a
// shared response another session fetched) but still want it kept.
func OfferBody(ctx context.Context, body []byte) {
	if bc, ok := ctx.Value(bodyCopyKey{}).(bodyCopy); ok && bc.keep != nil && len(body) <= bc.limit {
		bc.keep(body)
	}
}
