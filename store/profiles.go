package store

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sync"
	"time"
)

// Token storage kinds recorded on a profile. They match api/token's Kind
// values; the store only remembers where the token went, never the token.
const (
	StorageNone    = ""
	StorageKeyring = "keyring"
	StorageFile    = "file"
)

// Profile is a named connection to a workspace.
type Profile struct {
	Name string
	// Region is "us", "eu" or "au"; empty when BaseURL is set.
	Region string
	// BaseURL overrides Region (a private deployment, or the simulator).
	BaseURL string
	// CAFile is an extra PEM bundle to trust, for TLS-inspecting proxies.
	CAFile string
	// ReadOnly hides every action that changes the workspace.
	ReadOnly  bool
	IsDefault bool
	// TokenStorage says where the token was saved: StorageKeyring,
	// StorageFile (the user opted in to plain text) or StorageNone.
	TokenStorage string
	CreatedAt    time.Time
	// WorkspaceID and WorkspaceName are the workspace whoami placed the
	// token in at login: a token it later places in another is refused
	// until login again (api.Config's Workspace). Empty for a profile
	// logged in before vaultdeck remembered it: nothing is checked then.
	WorkspaceID, WorkspaceName string
}

// Endpoint describes where the profile connects, for listings.
func (p Profile) Endpoint() string {
	if p.BaseURL != "" {
		return p.BaseURL
	}
	if p.Region == "" {
		return "region us"
	}
	return "region " + p.Region
}

// profileName is compiled on first use, not at start-up: package
// initialisation is on every command's path (the console's first frame too).
var profileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// ValidateProfileName reports whether name can name a profile. Names become
// keyring keys and file names, so they are kept to a safe alphabet.
func ValidateProfileName(name string) error {
	if !profileName().MatchString(name) {
		return fmt.Errorf("the profile name %q is not allowed: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

// Validate checks the profile's fields before it is saved.
func (p Profile) Validate() error {
	if err := ValidateProfileName(p.Name); err != nil {
		return err
	}
	switch p.Region { // the API client maps these to base addresses
	case "", "us", "eu", "au":
	default:
		return fmt.Errorf("the region %q is unknown: use us, eu or au", p.Region)
	}
	if p.Region != "" && p.BaseURL != "" {
		return errors.New("a profile takes a region or a base URL, not both")
	}
	if p.BaseURL != "" {
		u, err := url.Parse(p.BaseURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("the base URL %q is not an absolute http:// or https:// address", p.BaseURL)
		}
	}
	switch p.TokenStorage {
	case StorageNone, StorageKeyring, StorageFile:
	default:
		return fmt.Errorf("the token storage kind %q is unknown", p.TokenStorage)
	}
	return nil
}

const profileColumns = `name, region, base_url, ca_file, read_only, is_default, token_storage, created_at, workspace_id, workspace_name`

func scanProfile(row interface{ Scan(...any) error }) (Profile, error) {
	var p Profile
	var readOnly, isDefault int
	var created int64
	err := row.Scan(&p.Name, &p.Region, &p.BaseURL, &p.CAFile, &readOnly, &isDefault, &p.TokenStorage, &created, &p.WorkspaceID, &p.WorkspaceName)
	p.ReadOnly, p.IsDefault, p.CreatedAt = readOnly == 1, isDefault == 1, time.UnixMilli(created)
	return p, err
}

// SaveProfile creates or updates a profile. The first profile saved becomes
// the default, and so does p when p.IsDefault is set; saving never takes the
// default away from a profile (use SetDefault to move it).
func (s *Store) SaveProfile(p Profile) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return s.inTx(func(tx *sql.Tx) error {
		var defaults int
		if err := tx.QueryRow(`SELECT count(*) FROM profiles WHERE is_default = 1 AND name <> ?`, p.Name).Scan(&defaults); err != nil {
			return fmt.Errorf("the profiles could not be read: %w", err)
		}
		makeDefault := p.IsDefault || defaults == 0
		if makeDefault {
			if _, err := tx.Exec(`UPDATE profiles SET is_default = 0 WHERE is_default = 1 AND name <> ?`, p.Name); err != nil {
				return fmt.Errorf("the default profile could not be changed: %w", err)
			}
		}
		_, err := tx.Exec(`
INSERT INTO profiles (`+profileColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (name) DO UPDATE SET
	region = excluded.region, base_url = excluded.base_url, ca_file = excluded.ca_file,
	read_only = excluded.read_only, token_storage = excluded.token_storage,
	is_default = max(profiles.is_default, excluded.is_default),
	workspace_id = excluded.workspace_id, workspace_name = excluded.workspace_name`,
			p.Name, p.Region, p.BaseURL, p.CAFile, boolInt(p.ReadOnly), boolInt(makeDefault), p.TokenStorage, s.now().UnixMilli(), p.WorkspaceID, p.WorkspaceName)
		if err != nil {
			return fmt.Errorf("the profile %q could not be saved: %w", p.Name, err)
		}
		return nil
	})
}

// Profile returns the named profile, or an error wrapping ErrNotFound.
func (s *Store) Profile(name string) (Profile, error) {
	p, err := scanProfile(s.db.QueryRow(`SELECT `+profileColumns+` FROM profiles WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return Profile{}, fmt.Errorf("there is no profile named %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return Profile{}, fmt.Errorf("the profile %q could not be read: %w", name, err)
	}
	return p, nil
}

// Profiles lists every profile by name.
func (s *Store) Profiles() ([]Profile, error) {
	rows, err := s.db.Query(`SELECT ` + profileColumns + ` FROM profiles ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("the profiles could not be listed: %w", err)
	}
	defer rows.Close()
	var out []Profile
	for rows.Next() {
		p, err := scanProfile(rows)
		if err != nil {
			return nil, fmt.Errorf("the profiles could not be listed: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("the profiles could not be listed: %w", err)
	}
	return out, nil
}

// DefaultProfile returns the default profile, or an error wrapping ErrNotFound
// when there are no profiles.
func (s *Store) DefaultProfile() (Profile, error) {
	p, err := scanProfile(s.db.QueryRow(`SELECT ` + profileColumns + ` FROM profiles WHERE is_default = 1`))
	if errors.Is(err, sql.ErrNoRows) {
		return Profile{}, fmt.Errorf("there is no default profile: %w", ErrNotFound)
	}
	if err != nil {
		return Profile{}, fmt.Errorf("the default profile could not be read: %w", err)
	}
	return p, nil
}

// SetDefault makes name the default profile.
func (s *Store) SetDefault(name string) error {
	return s.inTx(func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM profiles WHERE name = ?`, name).Scan(&n); err != nil {
			return fmt.Errorf("the profile %q could not be read: %w", name, err)
		}
		if n == 0 {
			return fmt.Errorf("there is no profile named %q: %w", name, ErrNotFound)
		}
		if _, err := tx.Exec(`UPDATE profiles SET is_default = 0 WHERE is_default = 1`); err != nil {
			return fmt.Errorf("the default profile could not be changed: %w", err)
		}
		if _, err := tx.Exec(`UPDATE profiles SET is_default = 1 WHERE name = ?`, name); err != nil {
			return fmt.Errorf("the default profile could not be changed: %w", err)
		}
		return nil
	})
}

// SetTokenStorage records where the profile's token now lives.
func (s *Store) SetTokenStorage(name, storage string) error {
	p := Profile{Name: name, TokenStorage: storage}
	if err := p.Validate(); err != nil {
		return err
	}
	res, err := s.db.Exec(`UPDATE profiles SET token_storage = ? WHERE name = ?`, storage, name)
	if err != nil {
		return fmt.Errorf("the profile %q could not be updated: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("there is no profile named %q: %w", name, ErrNotFound)
	}
	return nil
}

// DeleteProfile removes a profile with its settings and cached responses.
// When it was the default, the oldest remaining profile becomes the default,
// so there always is one while any profile exists.
func (s *Store) DeleteProfile(name string) error {
	return s.inTx(func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM profiles WHERE name = ?`, name)
		if err != nil {
			return fmt.Errorf("the profile %q could not be deleted: %w", name, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("there is no profile named %q: %w", name, ErrNotFound)
		}
		for _, q := range []string{`DELETE FROM response_cache WHERE profile = ?`, `DELETE FROM profile_settings WHERE profile = ?`} {
			if _, err := tx.Exec(q, name); err != nil {
				return fmt.Errorf("the data of profile %q could not be deleted: %w", name, err)
			}
		}
		_, err = tx.Exec(`
UPDATE profiles SET is_default = 1
WHERE NOT EXISTS (SELECT 1 FROM profiles WHERE is_default = 1)
  AND name = (SELECT name FROM profiles ORDER BY created_at, name LIMIT 1)`)
		if err != nil {
			return fmt.Errorf("a new default profile could not be chosen: %w", err)
		}
		return nil
	})
}
