package upload

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

func write(t *testing.T, path string, size int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWalkKeepsStructureSkipsHiddenAndLinks(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "export")
	write(t, filepath.Join(root, "a.pdf"), 3)
	write(t, filepath.Join(root, "cases", "b.docx"), 5)
	write(t, filepath.Join(root, ".DS_Store"), 1)
	write(t, filepath.Join(root, ".git", "config"), 1)
	outside := filepath.Join(dir, "outside")
	write(t, filepath.Join(outside, "secret.pdf"), 1)
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	single := filepath.Join(dir, "single.txt")
	write(t, single, 7)

	p := Walk([]string{root, single, filepath.Join(dir, "nope.pdf")})
	var paths []string
	for _, f := range p.Files {
		paths = append(paths, f.Path)
	}
	if got := strings.Join(paths, ","); got != "a.pdf,cases/b.docx,single.txt" {
		t.Errorf("file_paths %s", got)
	}
	if p.Bytes != 15 || p.Files[1].Name != "b.docx" || !filepath.IsAbs(p.Files[0].Local) {
		t.Errorf("plan %+v", p)
	}
	notes := strings.Join(p.Notes, "\n")
	for _, want := range []string{"hidden file " + filepath.Join(root, ".DS_Store"), "hidden folder " + filepath.Join(root, ".git"), "symbolic link " + filepath.Join(root, "link")} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if len(p.Refused) != 1 || !strings.HasSuffix(p.Refused[0].Local, "nope.pdf") || p.Refused[0].Reason != "does not exist" {
		t.Errorf("refused %+v", p.Refused)
	}
}

func TestWalkRefusesOversizeAndUnreadableByName(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "huge.mp4")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: the size is what counts, no disk is used.
	if err := f.Truncate(api.MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// 600 MiB, the size of the example: written the way the product
	// writes sizes everywhere else (humanize.Bytes), not as 629145600.
	f, err = os.Create(filepath.Join(dir, "scan.tif"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(600 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	write(t, filepath.Join(dir, "ok.pdf"), 1)
	if os.Geteuid() != 0 { // root reads everything: no unreadable folder to make
		locked := filepath.Join(dir, "locked")
		write(t, filepath.Join(locked, "x.pdf"), 1)
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(locked, 0o755) })
	}

	p := Walk([]string{dir})
	if len(p.Files) != 1 || p.Files[0].Name != "ok.pdf" {
		t.Fatalf("files %+v", p.Files)
	}
	var got []string
	for _, r := range p.Refused {
		got = append(got, filepath.Base(r.Local)+": "+r.Reason)
	}
	want := []string{"huge.mp4: 500 MB (500,000,001 bytes), over the 500 MB per-file limit",
		"scan.tif: 629 MB, over the 500 MB per-file limit"}
	if os.Geteuid() != 0 {
		want = append(want, "locked: permission denied")
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("refused %q, want %q", got, want)
	}
}

func TestBatchesByCountAndSize(t *testing.T) {
	files := make([]File, 120)
	for i := range files {
		files[i].Size = 1
	}
	if b := Batches(files, 50, 1<<30); len(b) != 3 || len(b[0]) != 50 || len(b[2]) != 20 {
		t.Errorf("by count: %d batches", len(b))
	}
	sizes := []int64{200, 200, 200, 600, 100, 50}
	files = files[:0]
	for _, s := range sizes {
		files = append(files, File{Size: s})
	}
	var shape []int
	for _, b := range Batches(files, 50, 500) {
		var sum int64
		for _, f := range b {
			sum += f.Size
		}
		shape = append(shape, len(b))
		if sum > 500 && len(b) > 1 {
			t.Errorf("batch of %d bytes with %d files", sum, len(b))
		}
	}
	// [200 200] [200] [600 alone: over the bound by itself] [100 50]
	if fmt.Sprint(shape) != "[2 1 1 2]" {
		t.Errorf("by size: %v", shape)
	}
}
