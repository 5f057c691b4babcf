package sim_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// pinned is the wall clock every test simulator runs on; time moves only
// through Server.Advance.
var pinned = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func pinnedNow() time.Time { return pinned }

type harness struct {
	t    *testing.T
	sim  *sim.Server
	url  string
	http *http.Client
}

// newHarness starts an in-process simulator with rate limits off unless the
// caller's options say otherwise via the mutate hook.
func newHarness(t *testing.T, mutate ...func(*sim.Options)) *harness {
	t.Helper()
	o := sim.Options{Seed: sim.DefaultSeed, Now: pinnedNow, Control: true, NoRateLimit: true}
	for _, m := range mutate {
		m(&o)
	}
	e := simtest.Start(t, simtest.Options{Sim: o})
	return &harness{t: t, sim: e.Sim, url: e.URL, http: e.HTTP}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %q: %v", r.body, err)
	}
}

// do sends a request; body may be nil, a string/[]byte (sent as is) or any
// value (JSON-encoded).
func (h *harness) do(method, path, token string, body any) response {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, h.url+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := h.http.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return response{res.StatusCode, res.Header, b}
}

func (h *harness) admin() string { return h.sim.Token("admin") }

func (h *harness) get(path string) response { return h.do("GET", path, h.admin(), nil) }

func mustStatus(t *testing.T, r response, want int) {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d; body %s", r.status, want, r.body)
	}
}

type pair struct {
	ClientID string `json:"client_id"`
	MatterID string `json:"matter_id"`
}

type pairErr struct {
	ClientID string `json:"client_id"`
	MatterID string `json:"matter_id"`
	Error    string `json:"error"`
	Detail   string `json:"detail"`
}

type deleteResult struct {
	Deleted       []pair    `json:"deleted"`
	AlreadyAbsent []pair    `json:"already_absent"`
	Errors        []pairErr `json:"errors"`
}

type upsertResult struct {
	Created   []pair    `json:"created"`
	Restored  []pair    `json:"restored"`
	Unchanged []pair    `json:"unchanged"`
	Errors    []pairErr `json:"errors"`
}

func body(pairs ...pair) map[string]any { return map[string]any{"matters": pairs} }

func (h *harness) deleteMatters(pairs ...pair) deleteResult {
	h.t.Helper()
	r := h.do("DELETE", "/api/v2/matters", h.admin(), body(pairs...))
	mustStatus(h.t, r, 200)
	var res deleteResult
	r.json(h.t, &res)
	return res
}

func (h *harness) upsert(pairs ...pair) upsertResult {
	h.t.Helper()
	r := h.do("POST", "/api/v2/matters", h.admin(), body(pairs...))
	mustStatus(h.t, r, 200)
	var res upsertResult
	r.json(h.t, &res)
	return res
}

func (h *harness) addMatter(sp sim.MatterSpec) string {
	h.t.Helper()
	id, err := h.sim.AddMatter(sp)
	if err != nil {
		h.t.Fatal(err)
	}
	return id
}

// matter finds a stored matter by service id.
func (h *harness) matter(id string) sim.MatterInfo {
	h.t.Helper()
	for _, m := range h.sim.Matters() {
		if m.ServiceID == id {
			return m
		}
	}
	h.t.Fatalf("no matter %s", id)
	return sim.MatterInfo{}
}

func (h *harness) projectByName(name string) sim.ProjectInfo {
	h.t.Helper()
	for _, p := range h.sim.Projects() {
		if p.Name == name {
			return p
		}
	}
	h.t.Fatalf("no project %q", name)
	return sim.ProjectInfo{}
}
