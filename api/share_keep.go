package api

import (
	"context"
	"fmt"
	"weak"
)

// Keep returns the value the Share already holds for the same answer (the
// same base URL, token by hash, name and parameters) when same reports that
// it equals v; otherwise it holds v from now on and returns v.
//
// A view calls it with what it made of an answer (the decoded records and
// the order it shows them in), so sessions on one token that show an equal
// answer share one copy of it, whether they fetched it together (one
// request, Share) or minutes apart (one request each, equal bodies): ten
// sessions on a 100,000-entry recycle bin hold one bin, not ten. What is
// kept must therefore never be modified by anyone it is handed to.
//
// The Share holds it weakly: when the last session showing it leaves, the
// collector frees it and the Share forgets the key. Sessions with different
// tokens never share (the key holds the token's hash, as requests' keys do).
// A backend that is not a *SharedClient (the local console, tests) or has
// no token gets v back unchanged.
func Keep[T any](b any, ctx context.Context, name string, args []any, v *T, same func(a, b *T) bool) *T {
	sc, ok := b.(*SharedClient)
	if !ok || v == nil {
		return v
	}
	key, ok := sc.keptKey(ctx, name, args)
	if !ok {
		return v // the client reports the token problem on its next request
	}
	return keep(sc.share, key, v, same)
}

// keptKey is the key of what is kept for an answer: base URL, token hash,
// name and parameters, as a request's; false without a Share or a token.
func (sc *SharedClient) keptKey(ctx context.Context, name string, args []any) (string, bool) {
	if sc.share == nil || sc.tokens == nil {
		return "", false
	}
	tok, err := sc.token(ctx, epWhoAmI)
	if err != nil {
		return "", false
	}
	return sc.base + "|" + tokenHash(tok) + "|kept:" + name + "|" + fmt.Sprintf("%#v", args), true
}

// keptValue is the value kept under key while someone holds it, else nil.
func keptValue[T any](s *Share, key string) *T {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w, ok := s.kept[key].(weakRef[T]); ok {
		return w.p.Value()
	}
	return nil
}

// keptRef is a weak reference of any type, so one map holds them all.
type keptRef interface{ gone() bool }

type weakRef[T any] struct{ p weak.Pointer[T] }

func (w weakRef[T]) gone() bool { return w.p.Value() == nil }

func keep[T any](s *Share, key string, v *T, same func(a, b *T) bool) *T {
	for {
		s.mu.Lock()
		cur := s.kept[key]
		s.mu.Unlock()
		// compared outside the lock: an answer of 100,000 entries takes
		// milliseconds, and other sessions' requests must not wait on it
		if w, ok := cur.(weakRef[T]); ok {
			if o := w.p.Value(); o != nil && (o == v || same(o, v)) {
				return o
			}
		}
		s.mu.Lock()
		if s.kept[key] != cur {
			s.mu.Unlock()
			continue // another session kept an answer meanwhile: compare with it
		}
		for k, r := range s.kept {
			if r.gone() {
				delete(s.kept, k)
			}
		}
		s.kept[key] = weakRef[T]{p: weak.Make(v)}
		s.mu.Unlock()
		return v
	}
}
