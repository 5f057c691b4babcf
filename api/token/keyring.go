package token

import (
	"errors"
	"sync"

	"github.com/zalando/go-keyring"
)

// Service is the keyring service name every vaultdeck secret is filed under;
// the key (go-keyring's "username" attribute) is the profile name.
const Service = "vaultdeck"

// ErrNotFound is what a Keyring returns when it holds no secret for the key.
var ErrNotFound = errors.New("no secret in the keyring for this profile")

// Keyring is the little of an OS secret store vaultdeck needs. Get returns
// ErrNotFound (possibly wrapped) when the key is absent; so may Delete.
type Keyring interface {
	Get(service, key string) (string, error)
	Set(service, key, secret string) error
	Delete(service, key string) error
}

// System returns the OS keyring (Secret Service on Linux, Keychain on macOS,
// Credential Manager on Windows) through go-keyring. Its calls may block
// forever on a locked keyring; Source always calls it behind a timeout.
func System() Keyring { return systemKeyring{} }

type systemKeyring struct{}

func (systemKeyring) Get(service, key string) (string, error) {
	v, err := keyring.Get(service, key)
	return v, mapNotFound(err)
}

func (systemKeyring) Set(service, key, secret string) error {
	return keyring.Set(service, key, secret)
}

func (systemKeyring) Delete(service, key string) error {
	return mapNotFound(keyring.Delete(service, key))
}

func mapNotFound(err error) error {
	if errors.Is(err, keyring.ErrNotFound) {
		return ErrNotFound
	}
	return err
}

// MemoryKeyring is an in-process Keyring for tests and `vaultdeck demo`,
// which must never touch the user's real keyring.
type MemoryKeyring struct {
	mu      sync.Mutex
	secrets map[[2]string]string
}

// NewMemoryKeyring returns an empty in-memory keyring.
func NewMemoryKeyring() *MemoryKeyring {
	return &MemoryKeyring{secrets: map[[2]string]string{}}
}

// Get implements Keyring.
func (m *MemoryKeyring) Get(service, key string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.secrets[[2]string{service, key}]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

// Set implements Keyring.
func (m *MemoryKeyring) Set(service, key, secret string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.secrets[[2]string{service, key}] = secret
	return nil
}

// Delete implements Keyring.
func (m *MemoryKeyring) Delete(service, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := [2]string{service, key}
	if _, ok := m.secrets[k]; !ok {
		return ErrNotFound
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
