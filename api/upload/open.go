package upload

import (
	"os"

	"github.com/vaultdeck/vaultdeck/api/localfile"
)

// openFile opens a journaled file as the one reader of local files does
// for an upload's: a regular file only, refused by what it is otherwise (a
// named pipe put where the file was must not hang a resume in open(2)),
// no symbolic link followed anywhere on its path (Walk recorded the path
// with the root's own links resolved, so a link met here appeared since),
// and not over the interface's per-file limit. The caller's fstat and
// identity check still decide whether it is the file planned.
func openFile(name string) (*os.File, error) {
	f, err := localfile.Open(name, localfile.UploadFile)
	if err != nil {
		return nil, err
	}
	return f.OS(), nil
}
