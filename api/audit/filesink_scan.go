package audit

// Reading the follow's file back: its last whole line is the checkpoint, and
// anything after it (a batch cut by a crash) is cut off before appending.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// rescan finds the file's last whole line, cuts anything after it off
// durably, and moves the last id delivered up to it if it is later.
func (s *FileSink) rescan() error {
	st, err := s.f.Stat()
	if err != nil {
		return fmt.Errorf("the output file %s could not be examined: %w", s.Path, err)
	}
	line, end, err := lastLine(s.f, st.Size())
	if err != nil {
		return fmt.Errorf("the output file %s could not be read: %w", s.Path, err)
	}
	if end < st.Size() {
		if err := s.f.Truncate(end); err != nil {
			return fmt.Errorf("the torn last line of %s could not be cut off: %w", s.Path, err)
		}
		if err := s.f.Sync(); err != nil {
			return fmt.Errorf("the output file %s could not be synced: %w", s.Path, err)
		}
		s.say("cut a torn last line (%s) off %s", plural.Count(st.Size()-end, "byte"), s.Path)
	}
	s.end, s.cut = end, false
	if line == nil {
		return nil
	}
	var e struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(line, &e) != nil || e.ID == "" {
		return fmt.Errorf("the last line of %s is not an audit entry with an id, so it cannot say where to resume: %.80q", s.Path, line)
	}
	if idAfter(e.ID, s.last) {
		s.last = e.ID
	}
	return nil
}

// idAfter says the entry a comes after b in the log ("" is before all):
// ids ascend, as the service orders UUIDs, case aside.
func idAfter(a, b string) bool { return strings.ToLower(a) > strings.ToLower(b) }

// lastLine finds the last complete line of f (size bytes long) and where
// it ends (the length without any torn tail); nil when there is none.
func lastLine(f FollowFile, size int64) ([]byte, int64, error) {
	if size == 0 {
		return nil, 0, nil
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
func newlineBefore(f FollowFile, pos int64) (int64, error) {
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
