// Package faultserver is a scripted misbehaving API for tests: it answers
// every read endpoint of the service with a small valid workspace, except
// that each request first meets the fault the test chose (a hung gateway, a
// stalled or truncated body, redirects, transient statuses, the token echoed
// back in every form, a very large listing). It drives the api package's
// tests and the built binary's alike.
package faultserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Fault is what the server does to a request.
type Fault string

// The scripted faults.
const (
	None          Fault = "none"
	Hung          Fault = "hung"           // accept, never answer
	Stall         Fault = "stall"          // headers and the start of the body, then silence
	Truncate      Fault = "truncate"       // Content-Length promises more than is sent
	RedirectSame  Fault = "redirect-same"  // 307 to the same path with a trailing marker, same origin
	RedirectCross Fault = "redirect-cross" // 302 to the other listener (same host, another port)
	RedirectHost  Fault = "redirect-host"  // 302 to localhost instead of 127.0.0.1
	Status429     Fault = "429"            // once, then normal
	Status502     Fault = "502"            // once, an HTML gateway page, then normal
	Status503     Fault = "503"
	Status504     Fault = "504"
	SlowDown      Fault = "slow-down"    // once a 429 with Retry-After: 2 (not on whoami, which no limit counts), then normal
	StallMidway   Fault = "stall-midway" // the recycle bin sends 10,000 entries, then silence
	EchoError     Fault = "echo-error"   // 403 whose body echoes the token in every form
	EchoHeader    Fault = "echo-header"  // normal answers with the token in headers
	EchoData      Fault = "echo-data"    // normal answers with the token inside the data
	EchoEscaped   Fault = "echo-escaped" // the same, every character of the token \u-escaped everywhere
	Big           Fault = "big"          // the recycle bin holds BigN entries
	// The hostile faults (hostile.go): sizes and durations no real
	// answer has.
	HugeString   Fault = "huge-string"   // a name that is one string of Size bytes (default 2 GiB)
	EndlessSpace Fault = "endless-space" // a 200 whose chunked body is whitespace forever
	EndlessArray Fault = "endless-array" // a 200 whose listing has items forever
	BadBytes     Fault = "bad-bytes"     // names holding a lone 0x9b, raw C0 and C1 controls, invalid UTF-8
)

// Transient lists the faults a client should get over by retrying.
var Transient = []Fault{Status429, Status502, Status503, Status504}

// BigN is the size of the Big recycle bin.
const BigN = 200_000

// Server is a running fault server. Other is a second listener that records
// what reached it (nothing may, when a redirect is refused).
type Server struct {
	URL   string
	Other *Recorder
	srv   *httptest.Server
	fault Fault
	n     atomic.Int32
	// limited counts the requests a rate limit applies to (all but whoami).
	limited atomic.Int32
	stop    chan struct{}
	once    sync.Once
	big     []byte       // Big's whole body, or StallMidway's beginning
	size    int64        // HugeString's string
	sent    atomic.Int64 // body bytes the hostile faults wrote
	// WideNames's entry count; the padding faults' pace (progress.go).
	count   int
	trickle time.Duration
	// The answer faults' vault and whoami's workspace (answers.go).
	vault        vault
	wsMu         sync.Mutex
	wsID, wsName string
	tls          bool // OverTLS
}

// Recorder is a listener that counts requests and keeps their
// Authorization headers.
type Recorder struct {
	URL   string
	mu    sync.Mutex
	auths []string
	srv   *httptest.Server
}

// Auths returns the Authorization headers received, one per request.
func (r *Recorder) Auths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.auths...)
}

// Start serves fault. Close it when done (it releases hung requests).
func Start(fault Fault, opts ...Option) *Server {
	s := &Server{fault: fault, stop: make(chan struct{}), size: 2 << 30}
	for _, o := range opts {
		o(s)
	}
	rec := &Recorder{}
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.auths = append(rec.auths, r.Header.Get("Authorization"))
		rec.mu.Unlock()
		writeJSON(w, 200, `{"user_id":"elsewhere","email":"elsewhere@evil.example"}`)
	}))
	rec.URL = rec.srv.URL
	s.Other = rec
	// The bodies are made before the server listens: made per request, they
	// put seconds of this process's CPU (under load) before the first byte,
	// and a client's --timeout would read that as silence.
	switch fault {
	case Big:
		s.big = RecycleBinBody(BigN)
	case StallMidway:
		b := RecycleBinBody(10_000)
		s.big = b[:len(b)-len(`],"total":10000}`)]
	}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	if s.tls {
		s.srv.StartTLS()
	} else {
		s.srv.Start()
	}
	s.URL = s.srv.URL
	return s
}

// Requests is how many requests reached the main listener.
func (s *Server) Requests() int { return int(s.n.Load()) }

// Close stops both listeners.
func (s *Server) Close() {
	s.once.Do(func() { close(s.stop) })
	s.srv.CloseClientConnections()
	s.srv.Close()
	s.Other.srv.Close()
}

func (s *Server) wait(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-s.stop:
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	n := s.n.Add(1)
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	path := strings.TrimSuffix(r.URL.Path, "/_moved")
	switch s.fault {
	case HugeString, EndlessSpace, EndlessArray:
		s.hostile(w, r, path)
		return
	}
	if s.wire(w, r, path, tok) {
		return
	}
	if s.progressFault(path) {
		s.progress(w, r, path)
		return
	}
	if s.answerFault(r, path) {
		s.answer(w, r, path)
		return
	}
	switch s.fault {
	case Hung:
		s.wait(r)
		return
	case Stall:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		start := `{"`
		if path == "/api/v1/logs/audit" { // a bare array: a reader that checks the shape as it goes waits too
			start = `[{"`
		}
		w.Write([]byte(start))
		w.(http.Flusher).Flush()
		s.wait(r)
		return
	case Truncate:
		body := s.body(path, r.URL.Query(), nil)
		w.Header().Set("Content-Length", fmt.Sprint(len(body)+100))
		w.WriteHeader(200)
		w.Write([]byte(body[:len(body)/2]))
		return
	case RedirectSame:
		if !strings.HasSuffix(r.URL.Path, "/_moved") {
			to := *r.URL
			to.Path = r.URL.Path + "/_moved"
			http.Redirect(w, r, to.String(), http.StatusTemporaryRedirect)
			return
		}
		if tok == "" {
			writeJSON(w, 401, `{"error":"the redirect lost the token"}`)
			return
		}
	case RedirectCross, RedirectHost:
		base := s.Other.URL
		if s.fault == RedirectHost {
			base = strings.Replace(base, "127.0.0.1", "localhost", 1)
		}
		http.Redirect(w, r, base+r.URL.RequestURI(), http.StatusFound)
		return
	case SlowDown:
		if path != "/api/whoami" && s.limited.Add(1) == 1 {
			w.Header().Set("Retry-After", "2")
			writeJSON(w, 429, `{"error":"Rate limit exceeded"}`)
			return
		}
	case Status429, Status502, Status503, Status504:
		if n == 1 {
			w.Header().Set("Retry-After", "0")
			if s.fault == Status502 {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(502)
				fmt.Fprint(w, "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>"+strings.Repeat("<p>x</p>", 50)+"</body></html>")
				return
			}
			code := map[Fault]int{Status429: 429, Status503: 503, Status504: 504}[s.fault]
			writeJSON(w, code, `{"error":"try again"}`)
			return
		}
	case EchoError:
		forms := EchoForms(tok)
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		writeJSON(w, 403, fmt.Sprintf(`{"error":"token %s not allowed","detail":[{"loc":["header","authorization"],"msg":"bad %s","input":"%s"}],"more":{"url":"%s","lower":"%s","upper":"%s"}}`,
			forms["json-slash"], forms["json-u002f"], forms["raw"], forms["query"], forms["lower"], forms["upper"]))
		return
	case EchoHeader:
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		w.Header().Set("WWW-Authenticate", `Bearer token="`+tok+`"`)
	case StallMidway:
		if path == "/api/v1/vault/workspace/recycle_bin" {
			w.Header().Set("Content-Type", "application/json")
			w.Write(s.big) // 10,000 entries and no end (made in Start)
			w.(http.Flusher).Flush()
			s.wait(r)
			return
		}
	case Big:
		if path == "/api/v1/vault/workspace/recycle_bin" {
			w.Header().Set("Content-Type", "application/json")
			w.Write(s.big)
			return
		}
	}
	var echo map[string]string
	switch s.fault {
	case EchoData:
		echo = EchoForms(tok)
	case EchoEscaped:
		// Valid JSON that decodes to the token, with none of its letters
		// in the bytes: only the form, nowhere else in the body.
		echo = map[string]string{}
		for k := range EchoForms(tok) {
			echo[k] = JSONEscapeEvery(tok)
		}
	}
	body := s.body(path, r.URL.Query(), echo)
	if s.fault == BadBytes {
		body = strings.ReplaceAll(body, "Share Purchase", BadName)
	}
	if body == "" {
		writeJSON(w, 404, `{"error":"Not found"}`)
		return
	}
	writeJSON(w, 200, body)
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

// EchoForms are the ways a server has been seen to echo a token, as JSON
// string contents.
func EchoForms(tok string) map[string]string {
	return map[string]string{
		"raw":        tok,
		"json-slash": strings.ReplaceAll(tok, "/", `\/`),
		"json-u002f": strings.ReplaceAll(tok, "/", `\u002f`),
		"query":      url.QueryEscape(tok),
		"lower":      strings.ToLower(tok),
		"upper":      strings.ToUpper(tok),
	}
}

// JSONEscapeEvery writes every character of s as a \uXXXX escape.
func JSONEscapeEvery(s string) string {
	var b strings.Builder
	for _, c := range s {
		fmt.Fprintf(&b, `\u%04x`, c)
	}
	return b.String()
}

// IDs of the small workspace.
const (
	ProjectID = "3f1c2d3e-0000-4000-8000-000000000001"
	FileID    = "4f1c2d3e-0000-4000-8000-000000000002"
)

// body is the normal answer of an endpoint; echo, when set (EchoForms),
// puts the token into the data in a different form per place: names
// (JSON-escaped slash), IDs (URL-escaped), e-mails (lower case), nested
// unknown fields (\u002f and raw) and the audit entry's data (an echoed
// Authorization header, upper case).
func (s *Server) body(path string, q url.Values, echo map[string]string) string {
	name, id, email, nested, data := "Share Purchase", ProjectID, "a@harrowgate-law.com", `{}`, `{}`
	if echo != nil {
		name = "Share Purchase " + echo["json-slash"]
		id = echo["query"]
		email = echo["lower"] + "@harrowgate-law.com"
		nested = `{"debug":{"seen":["` + echo["json-u002f"] + `",{"raw":"` + echo["raw"] + `"}]}}`
		data = `{"headers":{"authorization":"Bearer ` + echo["upper"] + `"},"note":"` + echo["raw"] + `"}`
	}
	switch path {
	case "/api/whoami":
		wsID, wsName := s.workspace()
		return `{"user_id":"u1","email":"admin@harrowgate-law.com","name":"` + name + `","workspace_id":"` + wsID + `","workspace_name":"` + wsName + `","permissions":["Vault API","View workspace projects"],"x":` + nested + `}`
	case "/api/v1/vault/workspace/projects":
		return `{"response":{"content":{"pagination":{"page":1,"per_page":100,"total":1,"total_pages":1},"projects":[{"id":"` + id + `","name":"` + name + `","files_count":1,"size_bytes":"1000","updated_at":"2025-06-01T10:00:00Z","creator_email":"` + email + `","x":` + nested + `}]}}}`
	case "/api/v1/vault/projects/" + ProjectID + "/users":
		return `{"status":"success","data":{"project_id":"` + ProjectID + `","users":[{"user_id":"` + id + `","email":"` + email + `","name":"` + name + `","access_level":"edit","x":` + nested + `}]}}`
	case "/api/v1/vault/projects/" + ProjectID + "/files":
		return `{"response":{"content":{"files":[{"id":"` + id + `","name":"` + name + `.pdf","processing_status":"READY_TO_QUERY","size":1000,"uploaded_at":"2025-06-01T10:00:00Z","x":` + nested + `}],"pagination":{"page_size":100,"has_more":false,"next_cursor":null,"total_count":1}}}}`
	case "/api/v1/vault/get_files":
		return `{"response":{"content":[{"file_id":"` + FileID + `","file_name":"` + name + `.pdf","processing_status":"ready_to_query","content_type":"application/pdf","x":` + nested + `}]}}`
	case "/api/v1/vault/workspace/recycle_bin":
		return `{"items":[{"id":"` + id + `","resource_id":"` + ProjectID + `","deleted_at":"2025-06-01T10:00:00Z","deleted_by_user_email":"` + email + `","vault_project":{"id":"` + ProjectID + `","name":"` + name + `","files_count":1,"x":` + nested + `}}],"total":1}`
	case "/api/v1/logs/audit/earliest":
		return `{"log":{"id":"a1","timestamp":"2025-06-01T10:00:00Z","type":"auth:login","user":"` + name + `","ip":"10.0.0.1","data":` + data + `}}`
	case "/api/v1/logs/audit":
		if echo != nil && q.Get("from") == "a1" {
			return `[{"id":"a2","timestamp":"2025-06-01T10:01:00Z","type":"auth:login","user":"` + email + `","ip":"10.0.0.1","data":` + data + `,"x":` + nested + `}]`
		}
		return `[]`
	}
	return ""
}

// RecycleBinBody is a recycle-bin listing of n entries shaped like the
// service's (about 680 bytes an entry): the body of the Big fault, and of
// the decoding and streaming benchmarks, so that they all measure one shape.
func RecycleBinBody(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"6f1c2d3e-0000-4000-8000-%012d","resource_id":"7a1c2d3e-0000-4000-8000-%012d","resource_type":"vault_project",`+
			`"recycle_bin_status":"deleted","deleted_at":"2025-01-02T03:04:05.123456Z","recycle_bin_purged_scheduled_at":"2025-02-01T03:04:05.123456Z",`+
			`"delete_source":"customer_delete","deleted_source_id":"8b1c2d3e-0000-4000-8000-%012d","deleted_by_user_email":"user%d@harrowgate-law.com",`+
			`"vault_project":{"id":"7a1c2d3e-0000-4000-8000-%012d","name":"Project %d — Share Purchase","created_at":"2024-01-15T10:30:00.000000",`+
			`"creator_email":"creator%d@harrowgate-law.com","files_count":%d,"is_knowledge_base_project":false}}`, i, i, i, i%97, i, i, i%50, i%300)
	}
	fmt.Fprintf(&b, `],"total":%d}`, n)
	return []byte(b.String())
}
