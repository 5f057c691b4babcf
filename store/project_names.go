package store

import "strings"

// ProjectNames returns the project names (by lower-case ID) that the
// profile's access snapshots recorded, the latest snapshot's name winning:
// views that show journaled files by project name use them, without a
// request, when the cached project listing does not know a project.
func (s *Store) ProjectNames(profile string) (map[string]string, error) {
	rows, err := s.db.Query(`SELECT p.project_id, p.name FROM access_projects p
JOIN access_snapshots s ON s.id = p.snapshot_id WHERE s.profile = ? ORDER BY s.id`, profile)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		if name != "" {
			out[strings.ToLower(id)] = name
		}
	}
	return out, rows.Err()
}
