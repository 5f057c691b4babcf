package page

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
)

// The response cache is SQLite: every read, write and delete runs in a
// command, never in Update or Init (a 64 MB entry froze the console for
// seconds). Entries are response bodies exactly as received, never
// re-encoded values.

// MaxCacheEntry is the largest body the cache keeps: 8 MiB, a few thousand
// recycle-bin entries or every page of projects a workspace is likely to
// have. A larger body (a 100,000-entry bin is 66 MB) is not cached: reading
// it back would cost more than the budget it saves is worth.
const MaxCacheEntry = 8 << 20

// ErrNotCached is the Err of a cache read that found nothing usable.
var ErrNotCached = errors.New("not cached")

// Cached is a value decoded from the cache, with when it was fetched.
type Cached[T any] struct {
	Value T
	At    time.Time
}

// ReadCache reads key in a command and decodes it there with decode (so
// a large entry costs the event loop nothing); the answer is a
// Result[Cached[T]] of kind "cache", with ErrNotCached when nothing usable
// is cached.
func ReadCache[T any](c Cache, key string, tag Tag, decode func(body []byte, at time.Time) (T, error)) tea.Cmd {
	return func() tea.Msg {
		r := Result[Cached[T]]{Tag: tag, Kind: "cache", Err: ErrNotCached}
		if c == nil {
			return r
		}
		body, at, ok := c.Get(key)
		if !ok {
			return r
		}
		v, err := decode(body, at)
		if err != nil {
			return r // an undecodable entry is as good as none
		}
		r.Value, r.Err = Cached[T]{Value: v, At: at}, nil
		return r
	}
}

// KeepBody returns the context for a request whose response body, as
// received and when at most MaxCacheEntry, is stored under key. The write
// happens in the request's own goroutine. A nil cache leaves ctx as is.
func KeepBody(ctx context.Context, c Cache, key string) context.Context {
	if c == nil {
		return ctx
	}
	return api.WithBodyCopy(ctx, MaxCacheEntry, func(body []byte) {
		c.Put(key, append([]byte(nil), body...))
	})
}

// Forget drops keys from c; a nil cache is a no-op. It does IO: call it
// from a command (ForgetCmd), never from Update.
func Forget(c Cache, keys ...string) {
	if c == nil {
		return
	}
	for _, k := range keys {
		c.Delete(k)
	}
}

// ForgetCmd drops keys from c in a command.
func ForgetCmd(c Cache, keys ...string) tea.Cmd {
	if c == nil || len(keys) == 0 {
		return nil
	}
	return func() tea.Msg { Forget(c, keys...); return nil }
}
