// This file prepares a batch before it is sent: it opens and hashes each
// pending file and refuses, by name, the ones that vanished, cannot be read,
// grew over the limit or changed since an interrupted upload.

package upload

import (
	"context"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"syscall"

	"github.com/vaultdeck/vaultdeck/api"
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
// vanished, cannot be read, is not a regular file, grew over the limit, or
// (on a resume) no longer has the content journaled is refused by name; the
// descriptor stays open until the batch is sent, so a file removed now is
// still sent whole. It stops between files and between reads when ctx ends
// (the caller then discards the batch).
func (r *Runner) prepare(ctx context.Context, b store.JournalBatch) *prepared {
	p := &prepared{batch: b}
	open := r.Open
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
			f.State, f.Reason = store.FileRefused, reason
			p.start = append(p.start, f)
		}
		fd, err := open(f.Local)
		if err != nil {
			if os.IsNotExist(err) {
				refuse("vanished since it was listed")
			} else {
				refuse("cannot be read: " + errText(err))
			}
			continue
		}
		fi, err := fd.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			fd.Close()
			refuse(notRegular(fi))
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
		h := crc32.New(castagnoli)
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
			refuse("changed since the interrupted upload; upload it again as a new run")
			continue
		}
		f.Size, f.ContentHash = fi.Size(), sum
		p.start = append(p.start, f)
		p.send = append(p.send, f)
		p.fds = append(p.fds, fd)
	}
	return p
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// openFile opens a journaled file without blocking: open(2) of a named pipe
// waits for a writer, and one put where a journaled file was would hang a
// resume, deaf to signals. O_NONBLOCK makes that open return at once (it
// changes nothing for a regular file's reads); the fstat that follows
// refuses whatever is not a regular file.
func openFile(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

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
	return "is not a regular file now (" + kind + "); nothing was read from it"
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
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
