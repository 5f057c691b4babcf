package token

import (
	"errors"

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
