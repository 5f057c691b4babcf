package sim

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Matter deletion (DELETE /api/v2/matters) and the upsert that restores
// (POST /api/v2/matters).
//
// How a trimmed pair (c, m) resolves to a stored matter (rule 4):
//   - candidates = the matter whose firm pair is (c, m), plus every matter
//     whose stored name equals c + delimiter + m (delimiter per rule 5).
//     Deleted matters are candidates too.
//   - no candidate: already_absent (rule 7; also when client c is unknown).
//   - more than one distinct candidate: identity_conflict. That covers "the
//     pair names matter A but the stored name names a different matter B"
//     and "the stored name is shared by several (v1) matters": the stored
//     matter does not uniquely match the pair.
//   - one candidate: the pair resolves to it.
//
// Within one batch, pairs are processed in order:
//  1. empty client_id after trimming: invalid_client_id (checked first, so
//     a pair with both empty reports only this one error, rule 10);
//     empty matter_id: invalid_matter_id.
//  2. a trimmed pair equal to an earlier valid trimmed pair: duplicate_pair;
//     the earlier one is processed as usual (rule 8).
//  3. identity_conflict / already_absent as above.
//  4. a pair that resolves to a matter an earlier, different pair of the
//     batch already resolved to (one by pair, the other by stored name):
//     name_collision; the earlier pair keeps its result.
//  5. the matter is already deleted: already_absent.
//  6. externally linked while ethical-wall enforcement is on:
//     blocked_by_ethical_wall (the matter stays).
//  7. otherwise the matter is soft-deleted: deleted.
//
// Error items echo the raw strings sent; deleted and already_absent items
// carry the trimmed strings. Clients and ethical-wall settings are never
// touched by deletion.

type pairOut struct {
	ClientID string `json:"client_id"`
	MatterID string `json:"matter_id"`
}

type pairError struct {
	ClientID string `json:"client_id"`
	MatterID string `json:"matter_id"`
	Error    string `json:"error"`
	Detail   string `json:"detail"`
}

type deleteResult struct {
	Deleted       []pairOut   `json:"deleted"`
	AlreadyAbsent []pairOut   `json:"already_absent"`
	Errors        []pairError `json:"errors"`
}

type upsertResult struct {
	Created   []pairOut   `json:"created"`
	Restored  []pairOut   `json:"restored"`
	Unchanged []pairOut   `json:"unchanged"`
	Errors    []pairError `json:"errors"`
}

// Per-pair error codes.
const (
	ErrInvalidClientID  = "invalid_client_id"
	ErrInvalidMatterID  = "invalid_matter_id"
	ErrDuplicatePair    = "duplicate_pair"
	ErrIdentityConflict = "identity_conflict"
	ErrNameCollision    = "name_collision"
	ErrBlocked          = "blocked_by_ethical_wall"
)

var pairErrorDetail = map[string]string{
	ErrInvalidClientID:  "client_id is empty after trimming whitespace",
	ErrInvalidMatterID:  "matter_id is empty after trimming whitespace",
	ErrDuplicatePair:    "This pair repeats an earlier pair of the batch; the earlier one was processed",
	ErrIdentityConflict: "The pair does not uniquely identify a stored matter (pair and stored name point to different matters)",
	ErrNameCollision:    "An earlier pair of the batch already resolved to the same matter",
	ErrBlocked:          "The matter is externally linked and ethical-wall enforcement is enabled for the workspace",
}

const maxMatterBody = 64 << 20

func readMatterBody(w http.ResponseWriter, r *http.Request) ([]rawPair, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxMatterBody))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, &batchError{Error: "invalid_request",
			Detail: "The request body could not be read or is too large", ValidationErrors: []validationError{vErr("json_invalid")}})
		return nil, false
	}
	pairs, berr := parsePairs(body)
	if berr != nil {
		writeJSON(w, http.StatusBadRequest, berr)
		return nil, false
	}
	return pairs, true
}

// batchWalker applies rules 1 to 4 of the processing order above and hands
// each surviving pair and its single resolved matter to the caller.
type batchWalker struct {
	st      *state
	seen    map[pairKey]bool
	claimed map[*matter]bool
}

func newWalker(st *state) *batchWalker {
	return &batchWalker{st: st, seen: map[pairKey]bool{}, claimed: map[*matter]bool{}}
}

// step returns the error code for p (or ""), the trimmed key, and the
// resolved matter (nil when nothing matches).
func (b *batchWalker) step(p rawPair) (code string, key pairKey, target *matter) {
	key = pairKey{strings.TrimSpace(p.Client), strings.TrimSpace(p.Matter)}
	switch {
	case key.client == "":
		return ErrInvalidClientID, key, nil
	case key.matter == "":
		return ErrInvalidMatterID, key, nil
	case b.seen[key]:
		return ErrDuplicatePair, key, nil
	}
	b.seen[key] = true
	cands := b.st.resolve(key)
	if len(cands) > 1 {
		return ErrIdentityConflict, key, nil
	}
	if len(cands) == 0 {
		return "", key, nil
	}
	target = cands[0]
	if b.claimed[target] {
		return ErrNameCollision, key, nil
	}
	b.claimed[target] = true
	return "", key, target
}

// resolve lists the distinct matters a trimmed pair matches (rule 4).
func (st *state) resolve(k pairKey) []*matter {
	var out []*matter
	if m := st.byPair[k]; m != nil {
		out = append(out, m)
	}
	for _, m := range st.byName[k.client+st.delim()+k.matter] {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

func newPairError(p rawPair, code string) pairError {
	return pairError{ClientID: p.Client, MatterID: p.Matter, Error: code, Detail: pairErrorDetail[code]}
}

func (s *Server) handleDeleteMatters(w http.ResponseWriter, r *http.Request, tok *Token) {
	pairs, ok := readMatterBody(w, r)
	if !ok {
		return
	}
	now := s.lock()
	res := s.st.deleteMatters(pairs, now)
	// count is the pairs asked; deleted the matters this request deleted
	// (the listing's deleted_at at this time), so the log agrees with it
	s.recordAPI(r, tok, AuditAPIMatters, now, map[string]any{"operation": "delete", "count": len(pairs), "deleted": len(res.Deleted)})
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, res)
}

func (st *state) deleteMatters(pairs []rawPair, now time.Time) deleteResult {
	res := deleteResult{Deleted: []pairOut{}, AlreadyAbsent: []pairOut{}, Errors: []pairError{}}
	b := newWalker(st)
	for _, p := range pairs {
		code, key, m := b.step(p)
		out := pairOut{ClientID: key.client, MatterID: key.matter}
		switch {
		case code != "":
			res.Errors = append(res.Errors, newPairError(p, code))
		case m == nil || m.deleted():
			res.AlreadyAbsent = append(res.AlreadyAbsent, out)
		case m.ExternallyLinked && st.ethicalWall:
			res.Errors = append(res.Errors, newPairError(p, ErrBlocked))
		default:
			m.DeletedAt = now
			res.Deleted = append(res.Deleted, out)
		}
	}
	return res
}

func (s *Server) handleUpsertMatters(w http.ResponseWriter, r *http.Request, tok *Token) {
	pairs, ok := readMatterBody(w, r)
	if !ok {
		return
	}
	now := s.lock()
	res := s.st.upsertMatters(pairs, now, tok.UserEmail)
	s.recordAPI(r, tok, AuditAPIMatters, now, map[string]any{"operation": "upsert", "count": len(pairs), "created": len(res.Created), "restored": len(res.Restored)})
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, res)
}

// upsertMatters creates unknown pairs and restores deleted ones, resolving
// exactly like deletion so that a pair deleted through a v1 stored name is
// restored by upserting the same pair. It does not touch ethical walls:
// restoring a linked matter is allowed.
func (st *state) upsertMatters(pairs []rawPair, now time.Time, by string) upsertResult {
	res := upsertResult{Created: []pairOut{}, Restored: []pairOut{}, Unchanged: []pairOut{}, Errors: []pairError{}}
	b := newWalker(st)
	for _, p := range pairs {
		code, key, m := b.step(p)
		out := pairOut{ClientID: key.client, MatterID: key.matter}
		switch {
		case code != "":
			res.Errors = append(res.Errors, newPairError(p, code))
		case m == nil:
			st.createMatter(key, "", false, now, by)
			res.Created = append(res.Created, out)
		case m.deleted():
			m.DeletedAt = time.Time{}
			res.Restored = append(res.Restored, out)
		default:
			res.Unchanged = append(res.Unchanged, out)
		}
	}
	return res
}

// createMatter adds a v2 matter (and its client when new). Its stored name
// is built with the delimiter in force at creation, as the service does.
func (st *state) createMatter(k pairKey, desc string, linked bool, now time.Time, by string) *matter {
	if _, ok := st.clients[k.client]; !ok {
		st.clients[k.client] = &client{ID: uuid4(st.rng), ClientID: k.client, Name: k.client}
	}
	m := &matter{
		ServiceID: uuid4(st.rng), ClientID: k.client, MatterID: k.matter,
		StoredName: k.client + st.delim() + k.matter, Description: desc,
		ExternallyLinked: linked, CreatedAt: now, CreatorEmail: by,
	}
	st.addMatter(m)
	return m
}

// clientMatter is the v1 listing record (GET /api/v1/client_matters), with
// the simulator's mapping from v1 names to v2 pairs added. The public
// record has only the stored name, and how a v2 pair reaches a v1 name is
// not documented (facts §6.1, spec rule 4), so the simulator decides it and
// says it on every record: client_id and matter_id are the matter's own
// pair (empty for a matter made through v1), and name_delimiter is the
// workspace's delimiter (rule 5), so a pair (c, m) resolves to a record
// whose pair is (c, m) or whose name is c + name_delimiter + m, exactly as
// DELETE /api/v2/matters resolves it. A client that finds these fields
// missing is reading a service that does not say this, and must not guess.
type clientMatter struct {
	ID               string  `json:"id"`
	UserEmail        string  `json:"user_email"`
	Name             string  `json:"name"`
	Description      string  `json:"description"`
	UserCount        int     `json:"user_count"`
	TotalEvents      int     `json:"total_events"`
	CreatedAt        string  `json:"created_at"`
	DeletedAt        *string `json:"deleted_at"`
	ClientID         string  `json:"client_id"`
	MatterID         string  `json:"matter_id"`
	NameDelimiter    string  `json:"name_delimiter"`
	ExternallyLinked bool    `json:"externally_linked"`
}

func (s *Server) handleListMatters(w http.ResponseWriter, r *http.Request, tok *Token) {
	now := s.lock()
	// The listing's Date comes from the same clock as its deleted_at, as
	// on the service: a client reads the service's time from it (a restore
	// compares it with when its request was sent). net/http would stamp the
	// process's clock, which Advance does not move.
	w.Header().Set("Date", now.UTC().Format(http.TimeFormat))
	out := make([]clientMatter, 0, len(s.st.matters))
	delim := s.st.delim()
	for _, m := range s.st.matters {
		cm := clientMatter{
			ID: m.ServiceID, UserEmail: m.CreatorEmail, Name: m.StoredName, Description: m.Description,
			UserCount: len(m.StoredName) % 7, TotalEvents: len(m.Description) * 3,
			CreatedAt: fmtNaive(m.CreatedAt), ClientID: m.ClientID, MatterID: m.MatterID, NameDelimiter: delim,
			ExternallyLinked: m.ExternallyLinked,
		}
		if m.deleted() {
			d := fmtNaive(m.DeletedAt)
			cm.DeletedAt = &d
		}
		out = append(out, cm)
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}
