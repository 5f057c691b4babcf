package sim

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// Scale selects how much seed data the simulator generates.
type Scale string

const (
	// ScaleSmall is the default: a workspace a person can read through.
	ScaleSmall Scale = "small"
	// ScaleLarge adds 100,000 recycle-bin entries, files and audit entries
	// so that paging, filtering and rendering can be load-tested.
	ScaleLarge Scale = "large"
)

// DefaultSeed is the seed used when none is given.
const DefaultSeed = 1

// Limits are per-minute request limits per workspace and category.
// A zero field takes the production default.
type Limits struct {
	Vault   int // every /api/v1/vault/... path (default 10)
	Audit   int // /api/v1/logs/... (default 60)
	Matters int // /api/v2/matters, both methods, shared (default 150)
}

// Wire limits the spec states; exported so tests and callers can refer to
// them. The file size is an int64, as sizes are; the counts are untyped, so
// they compare with any integer.
const MaxFileBytes int64 = 500_000_000

const (
	MaxFilesPerUpload = 50
	MaxFileIDs        = 1000
	MaxPairs          = 10_000
)

// Options configure a simulator. The zero value is usable.
type Options struct {
	Seed        int64
	Scale       Scale
	NoRateLimit bool
	// RecycleBin, when positive, is the number of recycle-bin entries to
	// seed instead of the scale's (load tests of the client's streaming).
	RecycleBin int
	// AuditEntries, when positive, is the number of audit entries to seed
	// instead of the scale's (benchmarks of a mirror's sync).
	AuditEntries int
	// AuditBurst plants a burst of deletions in the seeded log (zero: none).
	AuditBurst AuditBurst
	// Leaver makes one seeded person (the owner of LeaverProjectName;
	// Server.Leaver names them) show every part of `vaultdeck person`:
	// sole-MANAGE projects, direct shares to remove (one also inherited
	// from the workspace share), matters, deletions in the bin and a login
	// from a new address (seed_leaver.go). Off, the seed is as before.
	Leaver bool
	// Control enables the unauthenticated /_sim/ control endpoints.
	Control bool
	// Now is the wall clock the simulator clock is based on (default time.Now).
	// Advance adds an offset on top of it, so tests pin Now and move time
	// forward explicitly instead of sleeping.
	Now func() time.Time
	// ProcessingDelay is how long a new upload stays PROCESSING (default 30s).
	ProcessingDelay time.Duration
	// StuckShare is the fraction (0..1) of new uploads that never leave
	// PROCESSING. Chosen deterministically from a hash of the file id.
	StuckShare float64
	// MaxFileBytes is the per-file upload limit (default 500,000,000).
	MaxFileBytes int64
	Limits       Limits
	// AuditTrickle is how many user audit entries (logins, add-in use) a
	// minute of simulator time adds after seeding; 0 adds none. The demo
	// sets it so that a followed log moves. SetAuditTrickle changes it.
	AuditTrickle int
	// SharingChanges is how many grants, revocations and level changes
	// are made on random projects each time the simulator clock crosses a
	// UTC midnight (project_updated_at moves with each). 0 takes the
	// scale's default (large: 5, small: none); negative means none.
	SharingChanges int
}

// Server is the simulator: an http.Handler over in-memory state.
// All state is guarded by mu; handlers take it for their whole run, which
// keeps every request atomic (a 400 can never half-apply).
type Server struct {
	opts   Options
	mux    *http.ServeMux
	tokens []Token

	mu      sync.Mutex
	revoked map[string]bool // token names /_sim/revoke refused until /_sim/restore
	offset  time.Duration   // added to opts.Now by Advance
	st      *state
	limiter *limiter
}

// New builds a simulator seeded from opts.Seed.
func New(opts Options) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Scale == "" {
		opts.Scale = ScaleSmall
	}
	if opts.ProcessingDelay <= 0 {
		opts.ProcessingDelay = 30 * time.Second
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = MaxFileBytes
	}
	if opts.Limits.Vault <= 0 {
		opts.Limits.Vault = 10
	}
	if opts.Limits.Audit <= 0 {
		opts.Limits.Audit = 60
	}
	if opts.Limits.Matters <= 0 {
		opts.Limits.Matters = 150
	}
	s := &Server{opts: opts}
	s.tokens = makeTokens(opts.Seed)
	s.limiter = newLimiter()
	s.st = s.seed()
	s.routes()
	return s
}

// seed generates the state from the options, at the current wall clock
// (New and Reset; Reset keeps the clock offset, which seeding ignores).
func (s *Server) seed() *state {
	now := s.opts.Now()
	st := seedState(s.opts.Seed, s.opts.Scale, s.opts.RecycleBin, s.opts.AuditEntries, s.opts.AuditBurst, s.opts.Leaver, now)
	simNow := now.Add(s.offset).UTC()
	st.setTrickle(s.opts.AuditTrickle, simNow)
	st.churnPerDay = max(s.opts.SharingChanges, 0)
	if s.opts.SharingChanges == 0 && s.opts.Scale == ScaleLarge {
		st.churnPerDay = largeChurn
	}
	st.churnDay = simNow.Truncate(24 * time.Hour)
	return st
}

// newRand returns the simulator's deterministic generator for a seed and a
// stream; separate streams keep e.g. token values independent of seed data.
func newRand(seed int64, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), stream))
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/whoami", s.guard(catNone, need{}, s.handleWhoami))

	m.HandleFunc("DELETE /api/v2/matters", s.guard(catMatters, needMatters, s.handleDeleteMatters))
	m.HandleFunc("POST /api/v2/matters", s.guard(catMatters, needMatters, s.handleUpsertMatters))
	m.HandleFunc("GET /api/v1/client_matters", s.guard(catMatters, needMatters, s.handleListMatters))

	m.HandleFunc("GET /api/v1/vault/workspace/projects", s.guard(catVault, needView, s.handleListProjects))
	m.HandleFunc("GET /api/v1/vault/workspace/recycle_bin", s.guard(catVault, needView, s.handleRecycleBin))
	m.HandleFunc("GET /api/v1/vault/projects/{id}/files", s.guard(catVault, needVaultAPI, s.handleListFiles))
	m.HandleFunc("GET /api/v1/vault/projects/{id}/users", s.guard(catVault, needSharing, s.handleProjectUsers))
	m.HandleFunc("POST /api/v1/vault/projects/{id}/users", s.guard(catVault, needShare, s.handleUpdateProjectUsers))
	m.HandleFunc("DELETE /api/v1/vault/projects/{id}/users", s.guard(catVault, needShare, s.handleRemoveProjectUsers))
	m.HandleFunc("GET /api/v1/vault/get_files", s.guard(catVault, needVaultAPI, s.handleGetFiles))
	m.HandleFunc("POST /api/v1/vault/upload_files/{id}", s.guard(catVault, needModify, s.handleUpload))
	m.HandleFunc("DELETE /api/v1/vault/delete_project/{id}", s.guard(catVault, needModify, s.handleDeleteProject))
	m.HandleFunc("DELETE /api/v1/vault/delete_file/{id}", s.guard(catVault, needModify, s.handleDeleteFile))
	m.HandleFunc("GET /api/v1/vault/get_metadata/{id}", s.guard(catVault, needVaultAPI, s.handleGetMetadata))

	m.HandleFunc("GET /api/v1/logs/audit/earliest", s.guard(catAudit, needAudit, s.audited(s.handleAuditEarliest)))
	m.HandleFunc("GET /api/v1/logs/audit/latest", s.guard(catAudit, needAudit, s.audited(s.handleAuditLatest)))
	m.HandleFunc("GET /api/v1/logs/audit/search", s.guard(catAudit, needAudit, s.audited(s.handleAuditSearch)))
	m.HandleFunc("GET /api/v1/logs/audit/search/{$}", s.guard(catAudit, needAudit, s.audited(s.handleAuditSearch)))
	m.HandleFunc("GET /api/v1/logs/audit", s.guard(catAudit, needAudit, s.audited(s.handleAuditList)))

	m.HandleFunc("POST /_sim/{op}", s.handleControl)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "Not found")
	})
	s.mux = m
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

// writeJSON writes v with the status. encoding/json escapes control bytes
// (\u001b) so seeded escape sequences reach clients intact but inert.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // names like "Quill & Ledger" stay readable
	_ = enc.Encode(v)
}

type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Error: msg})
}
