// Package tokentest holds the token package's test fakes.
package tokentest

import (
	"sync"

	"github.com/vaultdeck/vaultdeck/api/token"
)

var _ token.Keyring = (*MemoryKeyring)(nil)

// MemoryKeyring is an in-process token.Keyring for tests, which must never
// touch the user's real keyring.
type MemoryKeyring struct {
	mu      sync.Mutex
	secrets map[[2]string]string
}

// NewMemoryKeyring returns an empty in-memory keyring.
func NewMemoryKeyring() *MemoryKeyring {
	return &MemoryKeyring{secrets: map[[2]string]string{}}
}

// Get implements token.Keyring.
func (m *MemoryKeyring) Get(service, key string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.secrets[[2]string{service, key}]
	if !ok {
		return "", token.ErrNotFound
	}
	return v, nil
}

// Set implements token.Keyring.
func (m *MemoryKeyring) Set(service, key, secret string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.secrets[[2]string{service, key}] = secret
	return nil
}

// Delete implements token.Keyring.
func (m *MemoryKeyring) Delete(service, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := [2]string{service, key}
	if _, ok := m.secrets[k]; !ok {
		return token.ErrNotFound
	}
	delete(m.secrets, k)
	return nil
}

// Len reports how many secrets are held, for tests.
func (m *MemoryKeyring) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.secrets)
}
