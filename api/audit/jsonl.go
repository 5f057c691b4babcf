package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"

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
	if !bytes.ContainsAny(raw, "\r\n") {
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
	last           string // the last entry written: none at or before it is written again
	handed         string // the last entry handed to W, perhaps not yet through Flush
	saved          string // the last id the checkpoint holds
}

// Resume is the checkpoint's id ("" without one).
func (s *WriterSink) Resume(ctx context.Context) (string, error) {
	if s.Checkpoints == nil || s.CheckpointName == "" {
		return "", nil
	}
	id, err := s.Checkpoints.AuditCheckpoint(ctx, s.CheckpointName)
	s.last, s.saved = id, id
	return id, err
}

// Deliver writes and flushes the lines after the last one written, then
// moves the checkpoint.
//
// A W that keeps what its stream refused and writes it from its first
// byte at the next Flush (the command line's stdout) is handed each line
// once: a retry after a failed Flush flushes again, writing nothing twice.
func (s *WriterSink) Deliver(ctx context.Context, entries []store.AuditEntry) error {
	after := s.last
	if idAfter(s.handed, after) {
		after = s.handed
	}
	for len(entries) > 0 && !idAfter(entries[0].ID, after) {
		entries = entries[1:] // written already (a retry): a follow never writes an entry twice
	}
	if len(entries) == 0 && !idAfter(s.handed, s.last) {
		return s.checkpoint(ctx)
	}
	if len(entries) > 0 {
		s.buf = s.buf[:0]
		for _, e := range entries {
			s.buf = appendLine(s.buf, e.Raw)
		}
		if _, err := s.W.Write(s.buf); err != nil {
			return err
		}
		s.handed = entries[len(entries)-1].ID
	}
	if err := s.W.Flush(); err != nil {
		return err
	}
	if s.Flush != nil {
		if err := s.Flush(); err != nil {
			return err
		}
	}
	s.last = s.handed
	return s.checkpoint(ctx)
}

// checkpoint saves the last id written, when it moved; a failure is worth
// retrying (Follow does, with backoff), and the lines are not written again.
func (s *WriterSink) checkpoint(ctx context.Context) error {
	if s.Checkpoints == nil || s.CheckpointName == "" || s.saved == s.last {
		return nil
	}
	if err := s.Checkpoints.SaveAuditCheckpoint(ctx, s.CheckpointName, s.last); err != nil {
		return fmt.Errorf("%w: %w", errCheckpoint, err)
	}
	s.saved = s.last
	return nil
}

// Reopen does nothing for a stream.
func (s *WriterSink) Reopen(context.Context) error { return nil }
