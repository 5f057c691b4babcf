// This file prepares a batch before it is sent: it opens each pending file
// without following links, checks that it is still the file that was
// planned, hashes it, and refuses by name (with what to run) the ones that
// vanished, cannot be read, became a link or another kind of file, were
// replaced, grew over the limit or changed since they were planned.

package upload

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/localfile"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// prepared is a batch whose files are open and hashed, ready to send.
type prepared struct {
	batch store.JournalBatch
	send  []store.JournalFile // files to send (pending, readable, unchanged)
	fds   []*os.File
	start []store.JournalFile // every pending file's measured state, for StartBatch
}

func (p *prepared) close() {
	for _, f := range p.fds {
		f.Close()
	}
	p.fds = nil
}

// prepare opens and hashes each pending file of a batch. A file that
// vanished, cannot be read, is a link or lies under one, is not a regular
// file, is not the file planned (device, inode, size or modification time
// differ), grew over the limit, or (on a resume) no longer has the content
// journaled is refused by name, with what to run; the
// descriptor stays open until the batch is sent, so a file removed now is
// still sent whole. It stops between files and between reads when ctx ends
// (the caller then discards the batch).
func (r *Runner) prepare(ctx context.Context, b store.JournalBatch) *prepared {
	p := &prepared{batch: b}
	open := r.openLocal
	if open == nil {
		open = openFile
	}
	buf := make([]byte, 256<<10)
	for _, f := range b.Files {
		if ctx.Err() != nil {
			return p
		}
		if f.State != store.FilePending {
			continue
		}
		refuse := func(reason string) {
			// The project rides along so that whoever reports the refusal
			// can say what to run (AgainCommand).
			f.State, f.Reason, f.ProjectID = store.FileRefused, reason, b.Run.ProjectID
			p.start = append(p.start, f)
		}
		fd, err := open(f.Local)
		if err != nil {
			var le *localfile.Error
			switch {
			case errors.Is(err, fs.ErrNotExist):
				refuse("vanished since it was listed")
			case errors.As(err, &le) && le.Refused():
				refuse(le.Reason) // a link, a pipe, a device, too large
			default:
				refuse("cannot be read: " + errText(err))
			}
			continue
		}
		// fstat of the descriptor opened, not a stat of the name: what is
		// checked is what would be read.
		fi, err := fd.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			fd.Close()
			refuse(notRegular(fi))
			continue
		}
		if why := changed(f.Planned, identityOf(fi)); why != "" {
			fd.Close()
			refuse(why)
			continue
		}
		if fi.Size() > api.MaxFileBytes {
			fd.Close()
			refuse(api.OverFileLimit(fi.Size()))
			continue
		}
		// CRC-32C, not SHA-256: the hash only tells whether the local file
		// changed before a resume re-sends it (no adversary), and the CPU
		// SHA-256 took was a fifth of an upload's on loopback (see
		// BENCHMARKS.md); CRC-32C runs in hardware.
		h := crc32.New(castagnoli())
		n, err := io.CopyBuffer(h, ctxReader{ctx, io.NewSectionReader(fd, 0, fi.Size())}, buf)
		if ctx.Err() != nil {
			fd.Close()
			return p
		}
		if err != nil || n != fi.Size() {
			fd.Close()
			refuse("cannot be read: " + errText(err))
			continue
		}
		sum := "crc32c:" + hex.EncodeToString(h.Sum(nil))
		if f.ContentHash != "" && f.ContentHash != sum {
			fd.Close()
			refuse("its content changed since the interrupted upload")
			continue
		}
		f.Size, f.ContentHash = fi.Size(), sum
		p.start = append(p.start, f)
		p.send = append(p.send, f)
		p.fds = append(p.fds, fd)
	}
	return p
}

// castagnoli is built on first use: its tables cost start-up time to every
// command otherwise.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// notRegular says what a file that is not a regular one is, by name.
func notRegular(fi os.FileInfo) string {
	if fi == nil {
		return "is not a regular file"
	}
	m := fi.Mode()
	kind := "not a regular file"
	switch {
	case m&os.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		kind = "a socket"
	case m&os.ModeDevice != 0:
		kind = "a device"
	case m.IsDir():
		kind = "a folder"
	}
	return "is not a regular file now (" + kind + ")"
}

// changed says how a file differs from what was planned, or "" when it is
// the same (or nothing was recorded: a row journaled before identities
// were, which the content hash still guards once a batch began).
func changed(planned, now store.FileIdentity) string {
	if !planned.Known() {
		return ""
	}
	switch {
	case planned.Dev != now.Dev || planned.Ino != now.Ino:
		return "is another file than the one planned (its device and inode differ: replaced, or a link to another file put in its place)"
	case planned.Size != now.Size:
		return fmt.Sprintf("its size changed since the upload was planned (%s then, %d now)", plural.Count(planned.Size, "byte"), now.Size)
	case planned.ModNs != now.ModNs:
		return "was modified since the upload was planned (same size, another modification time)"
	}
	return ""
}

// AgainCommand is what to run for refused files once the user has checked
// them: an upload of them as they are now, as a new run.
func AgainCommand(projectID string, files []store.JournalFile) string {
	var b strings.Builder
	b.WriteString("vaultdeck upload ")
	b.WriteString(projectID)
	for _, f := range files {
		b.WriteString(" ")
		b.WriteString(shellQuote(f.Local))
	}
	return b.String()
}

// shellQuote quotes a path for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r == ',' || r == ':' || r == '@' ||
			('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ctxReader ends a read loop when ctx ends: hashing a batch of large files
// takes seconds, and a stopped upload must stop now.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func errText(err error) string {
	if err == nil {
		return "short read"
	}
	var le *localfile.Error
	if errors.As(err, &le) {
		return le.Reason
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
