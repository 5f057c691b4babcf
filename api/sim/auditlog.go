package sim

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"time"
)

// How the log grows after seeding: API calls write entries of their own
// (as the service does: reading the log writes to it) and, when switched
// on, a trickle of user activity follows the simulator clock.

// maxUserAgent bounds the user agent copied into an entry: a client
// controls it, and the log lives as long as the simulator.
const maxUserAgent = 256

// appendAudit adds e at the end of the log. The log is ascending by id and
// by timestamp, strictly: a timestamp not after the last one moves a
// microsecond past it (many reads within one instant of a pinned clock),
// and an id not above the last one is the last one plus one, so listing by
// id and searching by time agree.
func (st *state) appendAudit(e *auditEntry) {
	if n := len(st.audit); n > 0 {
		last := st.audit[n-1]
		if !e.Timestamp.After(last.Timestamp) {
			e.Timestamp = last.Timestamp.Add(time.Microsecond)
		}
		e.ID = uuid7(st.rng, e.Timestamp)
		if e.ID <= last.ID {
			e.ID = nextUUID(last.ID)
		}
	} else {
		e.ID = uuid7(st.rng, e.Timestamp)
	}
	st.audit = append(st.audit, e)
}

// nextUUID returns the UUID one above id in its random low bits (bytes 9 to
// 15; byte 8 keeps the variant), which keeps version, variant and the
// millisecond prefix.
func nextUUID(id string) string {
	raw, err := hex.DecodeString(strings.ReplaceAll(id, "-", ""))
	if err != nil || len(raw) != 16 {
		panic("sim: malformed audit id " + id) // ids are only ever made here
	}
	var b [16]byte
	copy(b[:], raw)
	for i := 15; i >= 9; i-- {
		b[i]++
		if b[i] != 0 {
			break
		}
	}
	return format(b)
}

// apiEntry is the entry the service writes for an API call of tok's user.
func apiEntry(r *http.Request, tok *Token, typ string, now time.Time, data map[string]any) *auditEntry {
	ip := r.RemoteAddr
	if host, _, err := net.SplitHostPort(ip); err == nil {
		ip = host
	}
	ua := r.UserAgent()
	if len(ua) > maxUserAgent {
		ua = ua[:maxUserAgent]
	}
	return &auditEntry{Timestamp: now, Type: typ, User: tok.UserEmail, IP: ip, UserAgent: ua,
		Site: defaultAuditSite, Extra: data}
}

// recordAPI appends an entry for an API call. The caller holds s.mu (taken
// through lock, so time-driven entries before now are already in).
func (s *Server) recordAPI(r *http.Request, tok *Token, typ string, now time.Time, data map[string]any) {
	s.st.appendAudit(apiEntry(r, tok, typ, now, data))
}

// audited wraps an audit read: the read's own api:audit_log_fetch entry is
// written before it is answered, so the read sees it (latest without a type
// answers with it, and a listing from the last entry is never empty). Only
// reads that passed authentication, the rate limit and the permission check
// get here; a bad query is still a read and is logged.
func (s *Server) audited(h authedHandler) authedHandler {
	return func(w http.ResponseWriter, r *http.Request, tok *Token) {
		now := s.lock()
		s.recordAPI(r, tok, AuditAPIFetch, now, map[string]any{"path": r.URL.Path})
		s.mu.Unlock()
		h(w, r, tok)
	}
}

// trickleCatchUp bounds the user activity generated after a long pause
// (a demo left open overnight, a test that advances a year): older slots
// are skipped rather than filled.
const trickleCatchUp = 24 * time.Hour

// SetAuditTrickle sets the trickle of user audit entries to perMinute on
// the simulator clock (0 stops it). The entries are made when the clock is
// next read, each at its own scheduled time, so nothing runs in the
// background and stopping needs no goroutine to end. Reset returns to
// Options.AuditTrickle.
func (s *Server) SetAuditTrickle(perMinute int) {
	now := s.lock()
	defer s.mu.Unlock()
	s.st.setTrickle(perMinute, now)
}

func (st *state) setTrickle(perMinute int, now time.Time) {
	st.trickleRate = max(perMinute, 0)
	st.trickleNext = time.Time{}
	if st.trickleRate > 0 {
		st.trickleNext = now.Add(st.trickleGap())
	}
}

// trickleGap is the time to the next entry: uniform around the mean gap
// (60 s / rate), so the rate is steady but the entries are not a metronome.
func (st *state) trickleGap() time.Duration {
	mean := time.Minute / time.Duration(st.trickleRate)
	return mean/2 + time.Duration(st.trickleRNG.Int64N(int64(mean)))
}

// trickle writes the scheduled user entries due by now.
func (st *state) trickle(now time.Time) {
	if st.trickleRate == 0 || st.trickleNext.After(now) {
		return
	}
	if now.Sub(st.trickleNext) > trickleCatchUp {
		st.trickleNext = now.Add(-trickleCatchUp)
	}
	for !st.trickleNext.After(now) {
		st.appendAudit(st.userEntry(st.trickleRNG, st.trickleNext.Truncate(time.Microsecond)))
		st.trickleNext = st.trickleNext.Add(st.trickleGap())
	}
}

// userEntry is one entry of ordinary user activity at t, drawn from rng
// (the seeder's, or the trickle's own so that trickle timing never shifts
// anything else the seed decides).
func (st *state) userEntry(rng *rand.Rand, t time.Time) *auditEntry {
	u := st.users[rng.IntN(len(st.users))]
	e := &auditEntry{Timestamp: t, User: u.Email, Site: defaultAuditSite,
		IP: fmt.Sprintf("10.%d.%d.%d", rng.IntN(256), rng.IntN(256), 1+rng.IntN(254))}
	switch r := rng.IntN(100); {
	case r < 15:
		e.Type, e.Fetched, e.UserAgent = AuditFetchUsers, len(st.users), userAgents[4]
	case r < 55:
		e.Type, e.UserAgent = AuditLogin, userAgents[rng.IntN(2)]
	case r < 80:
		e.Type, e.UserAgent = AuditWordDraft, userAgents[2]
	default:
		e.Type, e.UserAgent = AuditOutlookAsk, userAgents[3]
	}
	return e
}
