package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Bookmark is a project the user pinned in one profile.
type Bookmark struct {
	Profile   string
	ProjectID string
	// Name is the project's name when it was bookmarked, so the list reads
	// well offline; the console refreshes it from the API when it can.
	Name      string
	CreatedAt time.Time
}

// AddBookmark pins a project. Adding it again updates the name and keeps the
// original time.
func (s *Store) AddBookmark(profile, projectID, name string) error {
	if profile == "" || projectID == "" {
		return errors.New("a bookmark needs a profile and a project id")
	}
	_, err := s.db.Exec(`
INSERT INTO bookmarks (profile, project_id, name, created_at) VALUES (?, ?, ?, ?)
ON CONFLICT (profile, project_id) DO UPDATE SET name = excluded.name`,
		profile, projectID, name, s.now().UnixMilli())
	if err != nil {
		return fmt.Errorf("the bookmark for project %s could not be saved: %w", projectID, err)
	}
	return nil
}

// RemoveBookmark unpins a project; removing one that is not there is not an error.
func (s *Store) RemoveBookmark(profile, projectID string) error {
	if _, err := s.db.Exec(`DELETE FROM bookmarks WHERE profile = ? AND project_id = ?`, profile, projectID); err != nil {
		return fmt.Errorf("the bookmark for project %s could not be removed: %w", projectID, err)
	}
	return nil
}

// Bookmarks lists a profile's bookmarks, oldest first.
func (s *Store) Bookmarks(profile string) ([]Bookmark, error) {
	rows, err := s.db.Query(`
SELECT profile, project_id, name, created_at FROM bookmarks
WHERE profile = ? ORDER BY created_at, project_id`, profile)
	if err != nil {
		return nil, fmt.Errorf("the bookmarks could not be listed: %w", err)
	}
	defer rows.Close()
	var out []Bookmark
	for rows.Next() {
		var b Bookmark
		var created int64
		if err := rows.Scan(&b.Profile, &b.ProjectID, &b.Name, &created); err != nil {
			return nil, fmt.Errorf("the bookmarks could not be listed: %w", err)
		}
		b.CreatedAt = time.UnixMilli(created)
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("the bookmarks could not be listed: %w", err)
	}
	return out, nil
}

// IsBookmarked reports whether the project is pinned in the profile.
func (s *Store) IsBookmarked(profile, projectID string) (bool, error) {
	var one int
	err := s.db.QueryRow(`SELECT 1 FROM bookmarks WHERE profile = ? AND project_id = ?`, profile, projectID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("the bookmark for project %s could not be read: %w", projectID, err)
	}
	return true, nil
}
