//go:build unix

package upload

import (
	"os"
	"syscall"

	"github.com/vaultdeck/vaultdeck/store"
)

// identityOf is a file's device, inode, size and modification time, from
// an lstat or an fstat.
func identityOf(fi os.FileInfo) store.FileIdentity {
	id := store.FileIdentity{Size: fi.Size(), ModNs: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.Dev, id.Ino = uint64(st.Dev), uint64(st.Ino)
	}
	return id
}
