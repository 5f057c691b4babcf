package cli

import "github.com/vaultdeck/vaultdeck/api"

// client is the API client of the one connection (the factory's).
func (r *runner) client() (*api.Client, error) { return r.f.Client() }
