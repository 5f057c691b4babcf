package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/vaultdeck/vaultdeck/store"
)

// Sink is where Follow delivers entries, in the service's order.
type Sink interface {
	// Resume is the id of the last entry delivered before this run ("":
	// none, start from Follow's Start).
	Resume(ctx context.Context) (string, error)
	// Deliver writes entries, and returns only once they are as durable
	// as the sink makes them (a file: written and fsynced).
	Deliver(ctx context.Context, entries []store.AuditEntry) error
	// Reopen is SIGHUP's: a file sink closes and reopens its path (after
	// logrotate moved it); others do nothing.
	Reopen(ctx context.Context) error
}

// appendLine adds raw as one JSON line: the service's bytes as they are
// when they hold no line break (the usual case), else compacted (only
// whitespace between tokens is dropped; a JSON string cannot hold a raw
// line break).
func appendLine(dst, raw []byte) []byte {
	raw = bytes.TrimSpace(raw)
	if bytes.IndexAny(raw, "\r\n") < 0 {
		return append(append(dst, raw...), '\n')
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		// Not JSON at all: the decoder accepted it, so this cannot
		// happen; keep the line whole anyway.
		b.Reset()
		b.Write(bytes.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, raw))
	}
	return append(append(dst, b.Bytes()...), '\n')
}

// FileSink appends JSON Lines to a file that is its own checkpoint: the
// last complete line is the last entry delivered. A torn last line (a
// crash in the middle of a write) is cut off when the file is opened, and
// each batch is written and fsynced before Deliver returns, so after a
// kill -9 at any moment the file holds every delivered entry exactly once.
type FileSink struct {
	Path string
	// Checkpoints, when set, also keeps the last id delivered under
	// CheckpointName: an empty file (just rotated) resumes from it instead
	// of from the start.
	Checkpoints    Mirror
	CheckpointName string
	f              *os.File
	last           string
	buf            []byte
}

// OpenFileSink opens (creating) path, repairing a torn last line.
func OpenFileSink(path string) (*FileSink, error) {
	s := &FileSink{Path: path}
	return s, s.open()
}

func (s *FileSink) open() error {
	f, err := os.OpenFile(s.Path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return fmt.Errorf("the output file could not be opened: %w", err)
	}
	last, end, err := lastLine(f)
	if err != nil {
		f.Close()
		return fmt.Errorf("the output file %s could not be read: %w", s.Path, err)
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		f.Close()
		return err
	}
	if end < size { // a torn line: cut it, durably, before anything else
		if err := f.Truncate(end); err != nil {
			f.Close()
			return fmt.Errorf("the torn last line of %s could not be cut off: %w", s.Path, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return fmt.Errorf("the output file %s could not be synced: %w", s.Path, err)
		}
		if _, err := f.Seek(end, io.SeekStart); err != nil {
			f.Close()
			return err
		}
	}
	if last != nil {
		var e struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(last, &e) != nil || e.ID == "" {
			f.Close()
			return fmt.Errorf("the last line of %s is not an audit entry with an id, so it cannot say where to resume: %.80q", s.Path, last)
		}
		s.last = e.ID
	}
	s.f = f
	return nil
}

// lastLine finds the last complete line of f and where it ends (the file
// length without any torn tail); nil when there is no complete line.
func lastLine(f *os.File) ([]byte, int64, error) {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil || size == 0 {
		return nil, 0, err
	}
	nl, err := newlineBefore(f, size)
	if err != nil || nl < 0 {
		return nil, 0, err
	}
	start, err := newlineBefore(f, nl)
	if err != nil {
		return nil, 0, err
	}
	line := make([]byte, nl-(start+1))
	if _, err := f.ReadAt(line, start+1); err != nil {
		return nil, 0, err
	}
	return bytes.TrimSpace(line), nl + 1, nil
}

// newlineBefore is the offset of the last '\n' before pos, or -1.
func newlineBefore(f *os.File, pos int64) (int64, error) {
	const chunk = 64 << 10
	b := make([]byte, chunk)
	for pos > 0 {
		n := min(int64(chunk), pos)
		pos -= n
		if _, err := f.ReadAt(b[:n], pos); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(b[:n], '\n'); i >= 0 {
			return pos + int64(i), nil
		}
	}
	return -1, nil
}

// Resume is the id on the last complete line; for an empty file, the
// checkpoint kept when it was rotated.
func (s *FileSink) Resume(ctx context.Context) (string, error) {
	if s.last == "" && s.Checkpoints != nil && s.CheckpointName != "" {
		return s.Checkpoints.AuditCheckpoint(ctx, s.CheckpointName)
	}
	return s.last, nil
}

// Deliver appends the entries as lines in one write and fsyncs.
func (s *FileSink) Deliver(ctx context.Context, entries []store.AuditEntry) error {
	if len(entries) == 0 {
		return nil
	}
	s.buf = s.buf[:0]
	for _, e := range entries {
		s.buf = appendLine(s.buf, e.Raw)
	}
	if _, err := s.f.Write(s.buf); err != nil {
		return fmt.Errorf("%s could not be written: %w", s.Path, err)
	}
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("%s could not be synced to disk: %w", s.Path, err)
	}
	s.last = entries[len(entries)-1].ID
	if s.Checkpoints != nil && s.CheckpointName != "" {
		// The file stays the authority while it has a line; this copy
		// only serves a file emptied by rotation.
		_ = s.Checkpoints.SaveAuditCheckpoint(ctx, s.CheckpointName, s.last)
	}
	return nil
}

// Reopen closes the file and opens its path again: after logrotate moved
// it away, a new file is started there. The last id delivered is kept
// (saved as the checkpoint first), so the new file goes on where the old
// one ended.
func (s *FileSink) Reopen(ctx context.Context) error {
	last := s.last
	if s.Checkpoints != nil && s.CheckpointName != "" && last != "" {
		if err := s.Checkpoints.SaveAuditCheckpoint(ctx, s.CheckpointName, last); err != nil {
			return err
		}
	}
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	if err := s.open(); err != nil {
		return err
	}
	if s.last == "" {
		s.last = last
	}
	return nil
}

// Close closes the file.
func (s *FileSink) Close() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}

// WriterSink writes JSON Lines to a stream (stdout). With a checkpoint,
// the last id written is kept in the mirror's store after each batch is
// flushed: a restart resumes there, at least once (a kill between the
// write and the checkpoint repeats that batch; the entry id is the key a
// SIEM deduplicates on).
type WriterSink struct {
	W *bufio.Writer
	// Flush, when set, pushes what W flushed through the layers below it
	// (the CLI's stdout buffer) before the checkpoint moves.
	Flush          func() error
	Checkpoints    Mirror
	CheckpointName string
	buf            []byte
}

// Resume is the checkpoint's id ("" without one).
func (s *WriterSink) Resume(ctx context.Context) (string, error) {
	if s.Checkpoints == nil || s.CheckpointName == "" {
		return "", nil
	}
	return s.Checkpoints.AuditCheckpoint(ctx, s.CheckpointName)
}

// Deliver writes and flushes the lines, then moves the checkpoint.
func (s *WriterSink) Deliver(ctx context.Context, entries []store.AuditEntry) error {
	if len(entries) == 0 {
		return nil
	}
	s.buf = s.buf[:0]
	for _, e := range entries {
		s.buf = appendLine(s.buf, e.Raw)
	}
	if _, err := s.W.Write(s.buf); err != nil {
		return err
	}
	if err := s.W.Flush(); err != nil {
		return err
	}
	if s.Flush != nil {
		if err := s.Flush(); err != nil {
			return err
		}
	}
	if s.Checkpoints != nil && s.CheckpointName != "" {
		return s.Checkpoints.SaveAuditCheckpoint(ctx, s.CheckpointName, entries[len(entries)-1].ID)
	}
	return nil
}

// Reopen does nothing for a stream.
func (s *WriterSink) Reopen(context.Context) error { return nil }

// errSinkPermanent marks a delivery failure no retry can cure.
var errSinkPermanent = errors.New("permanent")
