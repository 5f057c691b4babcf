package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// FileSink appends JSON Lines to a file that is its own checkpoint: the
// last whole line is the last entry delivered. The file holds whole lines
// only, each entry once, whatever fails:
//   - a torn last line (a crash in the middle of a write) is cut off when
//     the file is opened;
//   - a batch whose write or fsync fails (a full disk, an I/O error, a
//     short write) is cut back off before anything else is written, so a
//     retry never glues a line to a torn one nor repeats an entry;
//   - the file is opened for appending, so after logrotate's copytruncate
//     the next line goes at its new end (not at the old offset, after a
//     hole of NULs), and a file that shrank or was moved away (a rename
//     rotation) is noticed before the next batch: the entries go on after
//     the last one delivered, in a new file at the path when it moved;
//   - an entry not after the last one delivered is never written again;
//   - one follower per file: a second is refused, naming the first; and a
//     writer that does not take the lock (an older release's follower, a
//     script) is noticed by the size the file has past this follower's own
//     last write, and stops it (ErrFollowFileChanged).
//
// Each batch is written and fsynced before Deliver returns.
type FileSink struct {
	Path string
	// Checkpoints, when set, also keeps the last id delivered under
	// CheckpointName: a file emptied or shortened by rotation resumes
	// from it (the higher of it and the file's last line).
	Checkpoints    Mirror
	CheckpointName string

	fs    FollowFS
	lock  io.Closer
	f     FollowFile
	id    os.FileInfo // the file f is: the path naming another means it was rotated
	end   int64       // where the file's last whole line ends
	cut   bool        // a failed batch may lie past end: cut it before the next write
	last  string      // the last entry delivered
	saved string      // the last id the checkpoint holds
	buf   []byte
	// stopped is the sticky error of another writer found: nothing more
	// is written.
	stopped error

	// Notice, when set, is told of the file's repairs, rotations and
	// retried writes, in one line each (the command line's stderr).
	Notice func(string)
}

// OpenFileSink takes path's follower lock and opens (creating) path,
// repairing a torn last line.
func OpenFileSink(path string) (*FileSink, error) { return OpenFileSinkFS(OSFollowFS{}, path) }

// OpenFileSinkFS is OpenFileSink through fs (a test's faults).
func OpenFileSinkFS(fs FollowFS, path string) (*FileSink, error) {
	lock, err := lockFollow(path)
	if err != nil {
		return nil, err
	}
	s := &FileSink{Path: path, fs: fs, lock: lock}
	if err := s.open(); err != nil {
		lock.Close()
		return nil, err
	}
	return s, nil
}

func (s *FileSink) say(format string, a ...any) {
	if s.Notice != nil {
		s.Notice(fmt.Sprintf(format, a...))
	}
}

// open opens the path and finds its last whole line (cutting a torn tail
// off). The last id delivered never goes back: a file whose last line is
// older than what this sink delivered (a rotation) is continued after it.
func (s *FileSink) open() error {
	f, err := s.fs.Open(s.Path)
	if err != nil {
		return err
	}
	if err := lockOpen(s.Path, f); err != nil {
		f.Close()
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("the output file %s could not be examined: %w", s.Path, err)
	}
	s.f, s.id = f, st
	if err := s.rescan(); err != nil {
		f.Close()
		s.f = nil
		return err
	}
	return nil
}

// Resume is the last id delivered: the file's last line, or the
// checkpoint when it is later (the file was emptied or shortened by a
// rotation since).
func (s *FileSink) Resume(ctx context.Context) (string, error) {
	if s.Checkpoints != nil && s.CheckpointName != "" {
		id, err := s.Checkpoints.AuditCheckpoint(ctx, s.CheckpointName)
		if err != nil {
			return "", err
		}
		s.saved = id
		if idAfter(id, s.last) {
			s.last = id
		}
	}
	return s.last, nil
}

// ErrFollowFileChanged is returned (wrapped) by Deliver once the follow
// file was written by another process than this follower: it grew past
// this follower's own last write. Two writers of one file write entries
// twice and interleave lines (an older release's follower, still running
// beside the new one, left 1,006 duplicates, issue 40), so the follower
// stops and says so instead of going on after the other's last line.
var ErrFollowFileChanged = errors.New("the follow file was written by another process")

// otherWriter is the stop's sentence: the file, what it grew by, what to do.
func (s *FileSink) otherWriter(from, to int64, during bool) error {
	when := "since this follower's last write"
	if during {
		when = "while this follower wrote its last batch (its lines may be interleaved with the other's)"
	}
	s.stopped = fmt.Errorf("%w: %s grew from %s to %s %s: another process is writing it (an older vaultdeck's follow, which does not take the follower lock, or a script); stopped so that no entry is written twice. Stop the other writer, then run `vaultdeck audit follow` again: it goes on after the file's last whole entry",
		ErrFollowFileChanged, s.Path, plural.Count(from, "byte"), plural.Count(to, "byte"), when)
	return s.stopped
}

// errCheckpoint marks a batch that is in the file whose checkpoint could
// not be saved: worth trying again (the batch is not written twice).
var errCheckpoint = errors.New("the entries are written, but the checkpoint a restart resumes from could not be saved")

// Deliver appends the entries after the last one delivered as lines, in
// one write, and fsyncs; then moves the checkpoint.
func (s *FileSink) Deliver(ctx context.Context, entries []store.AuditEntry) error {
	if s.stopped != nil {
		return s.stopped
	}
	for len(entries) > 0 && !idAfter(entries[0].ID, s.last) {
		entries = entries[1:] // delivered already: a follow never writes an entry twice
	}
	if len(entries) == 0 {
		return s.checkpoint(ctx)
	}
	if err := s.ready(); err != nil {
		return err
	}
	s.buf = s.buf[:0]
	for _, e := range entries {
		s.buf = appendLine(s.buf, e.Raw)
	}
	n, err := s.f.Write(s.buf)
	if err == nil && n < len(s.buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return s.keepWhole(ctx, entries, n, fmt.Errorf("%s could not be written (%w)", s.Path, err))
	}
	if err := s.f.Sync(); err != nil {
		return s.undo(len(s.buf), fmt.Errorf("%s could not be synced to disk (%w)", s.Path, err))
	}
	was, want := s.end, s.end+int64(len(s.buf))
	s.end = want
	st, err := s.f.Stat()
	if err == nil && st.Size() <= want {
		s.end = st.Size() // appended at the end, wherever a rotation left it
	}
	s.last = entries[len(entries)-1].ID
	if err := s.checkpoint(ctx); err != nil {
		return err
	}
	if err == nil && st.Size() > want {
		return s.otherWriter(was, st.Size()-int64(len(s.buf)), true)
	}
	return nil
}

// keepWhole is a write that failed after n bytes of the batch reached the
// file (a disk that had room for part of it): the whole lines among them
// are kept, once the torn one is cut off and they are synced, and the last
// entry delivered moves to the last of them. A retry (Deliver skips what
// is delivered) then writes only the rest, so a disk with room for part of
// a batch takes that part instead of having the whole batch written and
// cut again at every try, delivering nothing until more space is freed.
// Nothing whole, or a cut or sync that fails: the batch is undone whole.
func (s *FileSink) keepWhole(ctx context.Context, entries []store.AuditEntry, n int, cause error) error {
	k := bytes.LastIndexByte(s.buf[:n], '\n') + 1
	if k == 0 {
		return s.undo(n, cause)
	}
	st, err := s.f.Stat()
	if err != nil {
		return s.undo(n, cause)
	}
	to := st.Size() - int64(n-k)
	if n > k {
		if err := s.f.Truncate(to); err != nil {
			return s.undo(n, cause)
		}
	}
	if err := s.f.Sync(); err != nil {
		return s.undo(k, cause)
	}
	kept := bytes.Count(s.buf[:k], []byte{'\n'})
	s.end, s.last = to, entries[kept-1].ID
	if err := s.checkpoint(ctx); err != nil {
		return fmt.Errorf("%w; the %s that %s kept (%w)", cause, wholeLines(kept), plural.Verb(kept, "fits is", "fit are"), err)
	}
	return fmt.Errorf("%w; the %s that %s kept and the part of a line after %s was cut off, so the file ends with whole lines", cause, wholeLines(kept), plural.Verb(kept, "fits is", "fit are"), plural.Verb(kept, "it", "them"))
}

// wholeLines is "1 whole line", "2 whole lines".
func wholeLines(n int) string { return plural.Count(n, "whole line", "whole lines") }

// undo cuts a failed batch off again: the n bytes of it that reached the
// file's end. When that fails too, the cut is made before the next write.
func (s *FileSink) undo(n int, cause error) error {
	if n == 0 {
		return fmt.Errorf("%w; nothing of the batch was written", cause)
	}
	st, err := s.f.Stat()
	if err == nil {
		to := st.Size() - int64(n)
		if to < 0 {
			to = 0
		}
		if err = s.f.Truncate(to); err == nil {
			s.end = to
			return fmt.Errorf("%w; the part written was cut off, so the file ends with whole lines", cause)
		}
	}
	s.cut = true
	return fmt.Errorf("%w; the part written could not be cut off yet (%v): it will be before the next write", cause, err)
}

// ready makes the file fit for the next batch: the path's own file (a new
// one when a rotation moved it away), ending with a whole line of ours.
func (s *FileSink) ready() error {
	if s.f == nil { // a reopen failed before
		if err := s.open(); err != nil {
			return err
		}
	}
	if why := s.moved(); why != "" {
		s.say("%s %s: writing on in a new file at that path, after entry %s", s.Path, why, s.last)
		s.f.Close()
		s.f = nil
		if err := s.open(); err != nil {
			return err
		}
	}
	st, err := s.f.Stat()
	if err != nil {
		return fmt.Errorf("the output file %s could not be examined: %w", s.Path, err)
	}
	switch size := st.Size(); {
	case size < s.end:
		s.say("%s shrank from %d to %s (a copytruncate rotation?): writing on at its new end, after entry %s", s.Path, s.end, plural.Count(size, "byte"), s.last)
		return s.rescan()
	case size > s.end && s.cut:
		if err := s.f.Truncate(s.end); err != nil {
			return fmt.Errorf("the part of a failed batch written to %s could not be cut off: %w", s.Path, err)
		}
		s.cut = false
	case size > s.end:
		// written by another than this follower, which holds the lock:
		// an older release's follower, a script
		return s.otherWriter(s.end, size, false)
	}
	return nil
}

// moved says how the path no longer names the open file ("" when it does,
// or when it cannot be told).
func (s *FileSink) moved() string {
	fi, err := s.fs.Lstat(s.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "was moved away (rotated)"
	case err != nil:
		return ""
	case !os.SameFile(fi, s.id):
		return "was replaced (rotated)"
	}
	return ""
}

// checkpoint saves the last id delivered, when it moved.
func (s *FileSink) checkpoint(ctx context.Context) error {
	if s.Checkpoints == nil || s.CheckpointName == "" || s.saved == s.last {
		return nil
	}
	if err := s.Checkpoints.SaveAuditCheckpoint(ctx, s.CheckpointName, s.last); err != nil {
		return fmt.Errorf("%w: %w", errCheckpoint, err)
	}
	s.saved = s.last
	return nil
}

// Reopen is SIGHUP's: the file is closed and its path opened again (after
// logrotate moved it, a new file); the entries go on after the last one
// delivered. A rotation is also noticed without it, before each batch.
func (s *FileSink) Reopen(ctx context.Context) error {
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	return s.open()
}

// Close closes the file and gives the follower lock up.
func (s *FileSink) Close() error {
	var err error
	if s.f != nil {
		err = s.f.Close()
		s.f = nil
	}
	if s.lock != nil {
		s.lock.Close()
		s.lock = nil
	}
	return err
}
