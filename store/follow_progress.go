package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// FollowProgress is what `audit follow` records of itself under its
// checkpoint's name, for a probe (`audit follow --check`) that reads it
// without a token: how far the output is, when the service last answered,
// and the trouble it is in.
type FollowProgress struct {
	// EntryAt is the service's time of the last entry delivered (zero:
	// none yet, or unreadable).
	EntryAt time.Time `json:"entry_at,omitzero"`
	// CaughtUpAt is when the last read that found nothing more was sent
	// (this machine's clock): the output held the whole log then.
	CaughtUpAt time.Time `json:"caught_up_at,omitzero"`
	// SuccessAt is the last read the service answered.
	SuccessAt time.Time `json:"success_at,omitzero"`
	// FailingSince is the first of the failed reads since the last
	// success (zero while it succeeds); Failures counts them; Refused says
	// the last one was the token refused (401, 403).
	FailingSince time.Time `json:"failing_since,omitzero"`
	Failures     int       `json:"failures,omitempty"`
	Refused      bool      `json:"refused,omitempty"`
	// Entries counts what this run delivered; PID and Started name it.
	Entries int64     `json:"entries,omitempty"`
	PID     int       `json:"pid,omitempty"`
	Started time.Time `json:"started,omitzero"`
	// Updated is when this was recorded (the store's clock).
	Updated time.Time `json:"-"`
}

// followProgressPrefix names a progress row among audit_checkpoints: the
// progress is kept beside the checkpoint it describes, in the same table,
// so it needs no schema of its own. A --checkpoint name may not begin
// with it (ReservedCheckpointName).
const followProgressPrefix = "follow-progress:"

// ReservedCheckpointName says name is one the store keeps for itself.
func ReservedCheckpointName(name string) bool { return strings.HasPrefix(name, followProgressPrefix) }

// SaveFollowProgress records p under the checkpoint name.
func (s *Store) SaveFollowProgress(ctx context.Context, name string, p FollowProgress) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := s.SaveAuditCheckpoint(ctx, followProgressPrefix+name, string(b)); err != nil {
		return fmt.Errorf("the follow's progress could not be recorded: %w", err)
	}
	return nil
}

// FollowProgress reads what a follower recorded under name; false when
// none did.
func (s *Store) FollowProgress(ctx context.Context, name string) (FollowProgress, bool, error) {
	var raw string
	var updated int64
	err := s.db.QueryRow(`SELECT id, updated_at FROM audit_checkpoints WHERE name = ?`, followProgressPrefix+name).Scan(&raw, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return FollowProgress{}, false, nil
	}
	if err != nil {
		return FollowProgress{}, false, fmt.Errorf("the follow's progress could not be read: %w", err)
	}
	var p FollowProgress
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return FollowProgress{}, false, fmt.Errorf("the follow's progress could not be read: %w", err)
	}
	p.Updated = time.UnixMilli(updated).UTC()
	return p, true, nil
}
