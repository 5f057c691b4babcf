package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// Settings returns a profile's stored settings (key to value); keys never
// set are absent. Read-only is the profile's ReadOnly field, not a setting.
func (s *Store) Settings(profile string) (map[string]string, error) {
	rows, err := s.db.Query(`SELECT key, value FROM profile_settings WHERE profile = ? ORDER BY key`, profile)
	if err != nil {
		return nil, fmt.Errorf("the settings of profile %q could not be read: %w", profile, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("the settings of profile %q could not be read: %w", profile, err)
		}
		out[k] = v
	}
	return out, rows.Err()
}

// SetSetting stores one setting of an existing profile; an empty value
// removes it (the built-in default applies again).
func (s *Store) SetSetting(profile, key, value string) error {
	return s.inTx(func(tx *sql.Tx) error {
		if err := profileExists(tx, profile); err != nil {
			return err
		}
		var err error
		if value == "" {
			_, err = tx.Exec(`DELETE FROM profile_settings WHERE profile = ? AND key = ?`, profile, key)
		} else {
			_, err = tx.Exec(`INSERT INTO profile_settings (profile, key, value) VALUES (?, ?, ?)
ON CONFLICT (profile, key) DO UPDATE SET value = excluded.value`, profile, key, value)
		}
		if err != nil {
			return fmt.Errorf("the setting %s of profile %q could not be saved: %w", key, profile, err)
		}
		return nil
	})
}

// SetReadOnly sets a profile's read-only flag.
func (s *Store) SetReadOnly(profile string, readOnly bool) error {
	res, err := s.db.Exec(`UPDATE profiles SET read_only = ? WHERE name = ?`, boolInt(readOnly), profile)
	if err != nil {
		return fmt.Errorf("read-only of profile %q could not be saved: %w", profile, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("there is no profile named %q: %w", profile, ErrNotFound)
	}
	return nil
}

func profileExists(tx *sql.Tx, name string) error {
	var one int
	err := tx.QueryRow(`SELECT 1 FROM profiles WHERE name = ?`, name).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("there is no profile named %q: %w", name, ErrNotFound)
	}
	return err
}
