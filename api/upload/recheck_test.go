package upload

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// Issue 25, case 2: after an interrupted upload, a file of a batch never
// started was swapped for a symbolic link to a file outside the folder, or
// truncated, and `upload --resume` sent the other file's bytes, or 10
// bytes, and marked both uploaded. A resume must send a file only when it
// is still the file that was planned: opened without following any link,
// with the device, inode, size and modification time recorded at plan
// time. Anything else is refused by name, the rest of the batch sent.
func TestResumeRechecksEveryFileAgainstItsPlan(t *testing.T) {
	r := newRig(t)
	docs := filepath.Join(r.dir, "docs")
	outside := filepath.Join(r.dir, "outside")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(docs, "sub"), 0o755))
	must(os.MkdirAll(outside, 0o755))
	other := filepath.Join(outside, "other.pdf")
	must(os.WriteFile(other, []byte("the bytes of another file, outside the folder"), 0o644))
	names := []string{"keep-1.pdf", "link.pdf", "trunc.pdf", "touched.pdf", "hardlink.pdf", "fifo.pdf", "gone.pdf", "denied.pdf", "keep-2.pdf", "sub/in-sub.pdf"}
	for _, n := range names {
		must(os.WriteFile(filepath.Join(docs, n), []byte(strings.Repeat("x", 64)+n), 0o644))
	}
	plan := Walk([]string{docs})
	if len(plan.Files) != len(names) {
		t.Fatalf("planned %d files, want %d", len(plan.Files), len(names))
	}
	crasher := r.runner("dead")
	crasher.crashAt = func(s string, _ int64) bool { return s == StepQueued }
	if _, err := crasher.Upload(context.Background(), r.project, plan, api.DuplicateSkip); !errors.Is(err, ErrCrashed) {
		t.Fatal(err)
	}

	p := func(n string) string { return filepath.Join(docs, n) }
	// ln -sf OTHER x.tmp && mv -f x.tmp link.pdf
	must(os.Symlink(other, p("link.tmp")))
	must(os.Rename(p("link.tmp"), p("link.pdf")))
	must(os.Truncate(p("trunc.pdf"), 10))
	// Same size, new content and modification time.
	must(os.WriteFile(p("touched.pdf"), []byte(strings.Repeat("y", 64)+"touched.pdf"), 0o644))
	must(os.Chtimes(p("touched.pdf"), time.Now().Add(time.Hour), time.Now().Add(time.Hour)))
	// A hard link to the outside file where the planned file was.
	must(os.Remove(p("hardlink.pdf")))
	must(os.Link(other, p("hardlink.pdf")))
	must(os.Remove(p("fifo.pdf")))
	must(syscall.Mkfifo(p("fifo.pdf"), 0o644))
	must(os.Remove(p("gone.pdf")))
	// The folder swapped for a link to a copy of it outside.
	must(os.Rename(p("sub"), filepath.Join(outside, "sub")))
	must(os.Symlink(filepath.Join(outside, "sub"), p("sub")))

	resumer := r.runner("alive")
	resumer.Steal = func(h string) bool { return h == "dead" }
	// Root reads anything: permission denied is what open says.
	resumer.openLocal = func(name string) (*os.File, error) {
		if filepath.Base(name) == "denied.pdf" {
			return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
		}
		return openFile(name)
	}
	out, err := resumer.Resume(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"link.pdf":       "symbolic link",
		"trunc.pdf":      "size changed",
		"touched.pdf":    "modified since",
		"hardlink.pdf":   "another file",
		"fifo.pdf":       "named pipe",
		"gone.pdf":       "vanished",
		"denied.pdf":     "permission denied",
		"sub/in-sub.pdf": "symbolic link",
	}
	refused := map[string]string{}
	for _, f := range out.Refused {
		refused[f.Path] = f.Reason
	}
	for path, word := range want {
		reason, ok := refused[path]
		if !ok {
			t.Errorf("%s was not refused", path)
			continue
		}
		if !strings.Contains(reason, word) {
			t.Errorf("%s refused with %q; want it to say %q", path, reason, word)
		}
	}
	if len(out.Refused) != len(want) || len(out.Uploaded) != 2 || !out.Partial() {
		t.Errorf("refused %d, uploaded %d, partial %v; want %d, 2, true", len(out.Refused), len(out.Uploaded), out.Partial(), len(want))
	}
	listed := r.listed()
	if len(listed) != 2 || len(listed["keep-1.pdf"]) != 1 || len(listed["keep-2.pdf"]) != 1 {
		t.Errorf("the project holds %v; want keep-1.pdf and keep-2.pdf only", sortedKeys(listed))
	}
	// Nothing is left for another resume to send.
	if open, _ := r.store.UnfinishedBatches("default"); len(open) != 0 {
		t.Errorf("%d batches still open", len(open))
	}
	files, _ := r.store.RunFiles(out.RunIDs[0])
	for _, f := range files {
		if f.State == store.FileUploaded && f.Name != "keep-1.pdf" && f.Name != "keep-2.pdf" {
			t.Errorf("%s marked uploaded", f.Path)
		}
	}
}

// The user may name a folder through a link (a home folder on another
// disk, /tmp on macOS): the plan records the real path, so the resume's
// no-follow open finds the files, and nothing is refused that did not
// change.
func TestResumeThroughALinkedRootSendsWhatDidNotChange(t *testing.T) {
	r := newRig(t)
	r.files(3, 10)
	link := filepath.Join(t.TempDir(), "via-link")
	if err := os.Symlink(r.dir, link); err != nil {
		t.Fatal(err)
	}
	plan := Walk([]string{filepath.Join(link, "docs")})
	crasher := r.runner("dead")
	crasher.crashAt = func(s string, _ int64) bool { return s == StepQueued }
	if _, err := crasher.Upload(context.Background(), r.project, plan, api.DuplicateSkip); !errors.Is(err, ErrCrashed) {
		t.Fatal(err)
	}
	resumer := r.runner("alive")
	resumer.Steal = func(h string) bool { return h == "dead" }
	out, err := resumer.Resume(context.Background())
	if err != nil || len(out.Uploaded) != 3 || len(out.Refused) != 0 {
		t.Fatalf("resume: %v, uploaded %d, refused %+v", err, len(out.Uploaded), out.Refused)
	}
}
