package upload

// Planning turns the paths a user names into the files of an upload and
// splits them into requests. It reads directories and file sizes only (no
// content, no network), so both the CLI and the console can show what an
// upload will do before anything is sent.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// MaxBatchBytes bounds one request's total size. The service warns that big
// requests time out over HTTPS; 500 MB is one maximal file, so any single
// acceptable file still fits in a request of its own.
const MaxBatchBytes = api.MaxFileBytes

// File is one local file to upload.
type File struct {
	Local string // absolute local path
	Name  string // base name, sent as the part's file name
	Path  string // file_paths value: slash-separated, relative to its root
	Size  int64
	// Planned is what the file was when the plan was made (device, inode,
	// size, modification time): it is sent only while it is still that
	// file, whatever happens to the path in between (a link, a copy or a
	// rewrite put there, a resume days later).
	Planned store.FileIdentity
}

// journal is the file as the journal records it when the run is planned.
func (f File) journal() store.JournalFile {
	return store.JournalFile{Local: f.Local, Path: f.Path, Name: f.Name, Size: f.Size, Planned: f.Planned}
}

// Refusal names a file that will not be sent, and why.
type Refusal struct {
	Local  string
	Reason string
}

// Plan is what Walk found.
type Plan struct {
	Files   []File
	Refused []Refusal
	Notes   []string // what was skipped on purpose (hidden files, links)
	Bytes   int64    // total size of Files
}

// Walk expands roots: a file stands for itself (its file_paths value is its
// name); a folder is walked, and each file's file_paths value is its path
// relative to that folder. Symbolic links met while walking are not
// followed, hidden files and folders (a leading dot) are skipped, each with a
// note; files over the per-file limit and unreadable paths are refused by
// name. A root that is itself a link, or lies under one, is followed: the
// user named it. Local paths are recorded with every link of the root
// resolved, so that a file is later opened along its path without
// following any link (openFile): a link that appears there afterwards is a
// change, refused.
func Walk(roots []string) Plan {
	var p Plan
	seen := map[string]bool{}
	add := func(local, name, rel string, fi os.FileInfo) {
		size := fi.Size()
		if seen[local] {
			return
		}
		seen[local] = true
		if size > api.MaxFileBytes {
			p.Refused = append(p.Refused, Refusal{local, api.OverFileLimit(size)})
			return
		}
		p.Files = append(p.Files, File{Local: local, Name: name, Path: filepath.ToSlash(rel), Size: size, Planned: identityOf(fi)})
		p.Bytes += size
	}
	for _, root := range roots {
		abs, err := filepath.Abs(root)
		if err != nil {
			p.Refused = append(p.Refused, Refusal{root, err.Error()})
			continue
		}
		named := filepath.Base(abs)
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			p.Refused = append(p.Refused, Refusal{abs, reason(err)})
			continue
		}
		abs = real
		fi, err := os.Lstat(abs)
		if err != nil {
			p.Refused = append(p.Refused, Refusal{abs, reason(err)})
			continue
		}
		if !fi.IsDir() {
			if !fi.Mode().IsRegular() {
				p.Refused = append(p.Refused, Refusal{abs, "not a regular file"})
				continue
			}
			add(abs, named, named, fi)
			continue
		}
		_ = filepath.WalkDir(abs, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				p.Refused = append(p.Refused, Refusal{path, reason(err)})
				if d != nil && d.IsDir() && path != abs {
					return fs.SkipDir
				}
				return nil
			}
			if path == abs {
				return nil
			}
			rel, _ := filepath.Rel(abs, path)
			if strings.HasPrefix(d.Name(), ".") {
				kind := "file"
				if d.IsDir() {
					kind = "folder"
				}
				p.Notes = append(p.Notes, fmt.Sprintf("skipped hidden %s %s", kind, path))
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			switch {
			case d.Type()&fs.ModeSymlink != 0:
				p.Notes = append(p.Notes, "skipped symbolic link "+path+" (links are not followed)")
			case d.IsDir():
			case !d.Type().IsRegular():
				p.Notes = append(p.Notes, "skipped "+path+" (not a regular file)")
			default:
				fi, err := d.Info()
				if err != nil {
					p.Refused = append(p.Refused, Refusal{path, reason(err)})
					return nil
				}
				add(path, d.Name(), rel, fi)
			}
			return nil
		})
	}
	return p
}

func reason(err error) string {
	switch {
	case os.IsNotExist(err):
		return "does not exist"
	case os.IsPermission(err):
		return "permission denied"
	}
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// Batches splits files, in order, into requests of at most maxFiles files
// and at most maxBytes bytes; a file larger than maxBytes goes alone.
func Batches(files []File, maxFiles int, maxBytes int64) [][]File {
	var out [][]File
	var cur []File
	var size int64
	for _, f := range files {
		if len(cur) > 0 && (len(cur) == maxFiles || size+f.Size > maxBytes) {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, f)
		size += f.Size
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}
