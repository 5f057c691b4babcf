package api

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Share lets several clients (one per SSH session, say) make an identical
// GET once while it is in flight: five admins opening the recycle bin at the
// same moment cost the organisation one request of its 10 a minute, not
// five. Requests are identical only when they go to the same base URL with
// the same token (by hash) and the same parameters, so a session never sees
// data fetched with someone else's token. Budgets are shared separately,
// through one *Budgets given to every client. Safe for concurrent use.
//
// A result also stays shareable for a short reuse window after it arrived:
// without it, a session asking a moment after another's request finished
// (before that session's view had stored it in the response cache) would
// spend a second request on the same answer.
type Share struct {
	group singleflight.Group
	reuse time.Duration

	mu      sync.Mutex
	flights map[string]*flight
	recent  map[string]recentResult
	kept    map[string]keptRef // answers views share (Keep), held weakly
}

type recentResult struct {
	val any
	at  time.Time
}

// flight is the context a shared request runs under: detached from any one
// caller (the session that started it may leave while others still wait),
// and cancelled once every caller has left.
type flight struct {
	ctx     context.Context
	cancel  context.CancelFunc
	waiters int
}

// NewShare returns an empty Share whose results are reused for the reuse
// window after they arrive (0: only while in flight).
func NewShare(reuse time.Duration) *Share {
	return &Share{reuse: reuse, flights: map[string]*flight{}, recent: map[string]recentResult{},
		kept: map[string]keptRef{}}
}

// remember keeps a fresh result for the reuse window and drops stale ones.
func (s *Share) remember(key string, v any) {
	if s.reuse <= 0 {
		return
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, r := range s.recent {
		if now.Sub(r.at) >= s.reuse {
			delete(s.recent, k)
		}
	}
	s.recent[key] = recentResult{val: v, at: now}
}

func (s *Share) fresh(key string) (any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recent[key]
	if !ok || time.Since(r.at) >= s.reuse {
		return nil, false
	}
	return r.val, true
}

// SharedClient is a Client whose GETs go through a Share. Everything else
// (mutations, Budget, Base) is the Client's own.
type SharedClient struct {
	*Client
	share *Share
}

// Client wraps c. A nil Share gives c's behaviour unchanged.
func (s *Share) Client(c *Client) *SharedClient { return &SharedClient{Client: c, share: s} }

func (s *Share) join(key string, ctx context.Context) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.flights[key]
	if f == nil {
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{ctx: fctx, cancel: cancel}
		s.flights[key] = f
	}
	f.waiters++
	return f.ctx
}

func (s *Share) leave(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.flights[key]
	if f == nil {
		return
	}
	if f.waiters--; f.waiters == 0 {
		f.cancel()
		delete(s.flights, key)
	}
}

// shared runs fn once for all callers asking for the same key at the same
// time. Each caller that shared a result gets its own copy (clone), so a
// view sorting its rows cannot race with another session's view; an answer
// only read (RecycleBin) is handed out as is.
func shared[T any](sc *SharedClient, ctx context.Context, name string, args []any, fn func(context.Context) (T, error), clone func(T) T) (T, error) {
	var zero T
	if sc.share == nil || sc.tokens == nil {
		return fn(ctx)
	}
	// token also records which budget bucket Budget reports for this
	// client, so a session that only joined others' requests still shows
	// the shared counter.
	tok, err := sc.token(ctx, epWhoAmI)
	if err != nil {
		return fn(ctx) // the client reports the token problem itself
	}
	key := sc.base + "|" + tokenHash(tok) + "|" + name + "|" + fmt.Sprintf("%#v", args)
	if v, ok := sc.share.fresh(key); ok {
		return clone(v.(T)), nil
	}
	fctx := sc.share.join(key, ctx)
	defer sc.share.leave(key)
	ch := sc.share.group.DoChan(key, func() (any, error) {
		v, err := fn(fctx)
		if err == nil {
			// stored before the flight ends, so no caller can fall between
			// the flight and the reuse window
			sc.share.remember(key, v)
		}
		return v, err
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			// A flight whose every earlier caller left was cancelled under
			// us; this caller is still here, so it asks on its own.
			if errors.Is(r.Err, context.Canceled) && ctx.Err() == nil {
				return fn(ctx)
			}
			return zero, r.Err
		}
		// Always a copy: the reuse window may hand the original to a later
		// caller even when this flight had only one.
		return clone(r.Val.(T)), nil
	case <-ctx.Done():
		return zero, &Error{Kind: KindCanceled, Endpoint: name, Err: ctx.Err()}
	}
}

// WhoAmI implements page.Backend through the Share.
func (sc *SharedClient) WhoAmI(ctx context.Context) (*WhoAmI, error) {
	return shared(sc, ctx, "whoami", nil, sc.Client.WhoAmI, func(w *WhoAmI) *WhoAmI {
		c := *w
		c.Permissions = slices.Clone(w.Permissions)
		return &c
	})
}

// ProjectsPage implements page.Backend through the Share.
func (sc *SharedClient) ProjectsPage(ctx context.Context, q ProjectQuery) (*ProjectPage, error) {
	return shared(sc, ctx, "projects", []any{q}, func(ctx context.Context) (*ProjectPage, error) {
		return sc.Client.ProjectsPage(ctx, q)
	}, func(p *ProjectPage) *ProjectPage {
		c := *p
		c.Projects = slices.Clone(p.Projects)
		return &c
	})
}

// ProjectFilesPage implements page.Backend through the Share.
func (sc *SharedClient) ProjectFilesPage(ctx context.Context, projectID string, q FileQuery) (*FilePage, error) {
	return shared(sc, ctx, "project_files", []any{projectID, q}, func(ctx context.Context) (*FilePage, error) {
		return sc.Client.ProjectFilesPage(ctx, projectID, q)
	}, func(p *FilePage) *FilePage {
		c := *p
		c.Files = slices.Clone(p.Files)
		return &c
	})
}

// ProjectUsers implements page.Backend through the Share: the listing is
// the answer one flight brought (Collected), each caller given its own copy.
func (sc *SharedClient) ProjectUsers(projectID string) Listing[ProjectUser] {
	return Collected(func(ctx context.Context) ([]ProjectUser, Summary, error) {
		users, err := shared(sc, ctx, "project_users", []any{projectID}, func(ctx context.Context) ([]ProjectUser, error) {
			users, _, err := sc.Client.ProjectUsers(projectID).Collect(ctx)
			return users, err
		}, slices.Clone)
		return users, Summary{}, err
	})
}

// GetFiles implements page.Backend through the Share.
// GetMetadata is one project's metadata, one request for every session
// asking at once; the answer is read, never modified.
func (sc *SharedClient) GetMetadata(ctx context.Context, projectID string) (*ProjectMetadata, error) {
	return shared(sc, ctx, "get_metadata", []any{projectID}, func(ctx context.Context) (*ProjectMetadata, error) {
		return sc.Client.GetMetadata(ctx, projectID)
	}, func(m *ProjectMetadata) *ProjectMetadata { c := *m; return &c })
}

func (sc *SharedClient) GetFiles(ctx context.Context, ids []string) ([]Item[FileDetail], error) {
	return shared(sc, ctx, "get_files", []any{ids}, func(ctx context.Context) ([]Item[FileDetail], error) {
		return sc.Client.GetFiles(ctx, ids)
	}, slices.Clone)
}
