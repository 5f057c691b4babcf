package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// PutCache stores a response body for a view, replacing any earlier one.
// fetchedAt is when the API answered, so the console can show the data's age
// without spending request budget. Callers must never cache anything that
// carries a token (request headers are not cached, only response bodies).
func (s *Store) PutCache(profile, key string, body []byte, fetchedAt time.Time) error {
	if profile == "" || key == "" {
		return errors.New("a cache entry needs a profile and a key")
	}
	if body == nil {
		body = []byte{} // the column is NOT NULL; an empty body is still a body
	}
	_, err := s.db.Exec(`
INSERT INTO response_cache (profile, key, body, fetched_at) VALUES (?, ?, ?, ?)
ON CONFLICT (profile, key) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at`,
		profile, key, body, fetchedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("the cached response %q could not be saved: %w", key, err)
	}
	return nil
}

// Cache returns the cached body and when it was fetched; ok is false when
// nothing is cached under the key.
func (s *Store) Cache(profile, key string) (body []byte, fetchedAt time.Time, ok bool, err error) {
	var ms int64
	err = s.db.QueryRow(`SELECT body, fetched_at FROM response_cache WHERE profile = ? AND key = ?`, profile, key).Scan(&body, &ms)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		return nil, time.Time{}, false, fmt.Errorf("the cached response %q could not be read: %w", key, err)
	}
	return body, time.UnixMilli(ms), true, nil
}

// DeleteCache forgets one cached response (after a mutation made it stale).
func (s *Store) DeleteCache(profile, key string) error {
	if _, err := s.db.Exec(`DELETE FROM response_cache WHERE profile = ? AND key = ?`, profile, key); err != nil {
		return fmt.Errorf("the cached response %q could not be deleted: %w", key, err)
	}
	return nil
}

// PruneCache deletes responses fetched before the cut-off and reports how
// many went, so the file does not grow without bound.
func (s *Store) PruneCache(before time.Time) (int64, error) {
	res, err := s.db.Exec(`DELETE FROM response_cache WHERE fetched_at < ?`, before.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("old cached responses could not be deleted: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}
