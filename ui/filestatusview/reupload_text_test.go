package filestatusview

import "testing"

// TestReuploadTextsAgreeWithOne: seen by hand in the demo at 120x40, R on
// one stuck file the journal does not hold answered 'none of the 1
// selected file was uploaded by vaultdeck here'; the dialog for one file
// said 'from their local paths'. Each says one file as one.
func TestReuploadTextsAgreeWithOne(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{noneUploadedHere(1), "the selected file was not uploaded by vaultdeck here: no local path is known"},
		{noneUploadedHere(3), "none of the 3 selected files was uploaded by vaultdeck here: no local path is known"},
		{reuploadQuestion(1, 1), "Re-upload 1 stuck or failed file from its local path with mode replace (it becomes a new version)?"},
		{reuploadQuestion(2, 3), "Re-upload 2 stuck or failed files from their local paths with mode replace (each becomes a new version)? 1 selected file is left out: no local path of it is journaled."},
	} {
		if c.got != c.want {
			t.Errorf("got  %q\nwant %q", c.got, c.want)
		}
	}
}
