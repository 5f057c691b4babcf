//go:build !unix

package upload

import (
	"os"

	"github.com/vaultdeck/vaultdeck/store"
)

// identityOf is a file's size and modification time: this system gives
// no device and inode through os.FileInfo.
func identityOf(fi os.FileInfo) store.FileIdentity {
	return store.FileIdentity{Size: fi.Size(), ModNs: fi.ModTime().UnixNano()}
}
