package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

func runAgainst(t *testing.T, h http.Handler, args ...string) run {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Limits: api.Limits{Vault: -1, Audit: -1},
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": "tok-SECRET-123", "VAULTDECK_BASE_URL": srv.URL}[k]
		}}
	code := Main(context.Background(), args, env)
	return run{code, out.String(), errb.String()}
}

const binBody = `{"total": 2, "items": [
  {"id": "e1", "deleted_at": "2025-06-01T10:00:00Z", "future_field": {"nested": [1, 2]},
   "vault_project": {"name": "Alpha \u001b[31m", "files_count": "3", "new_flag": true}},
  {"id":"e2","deleted_at":"2025-05-01T10:00:00Z","vault_project":{"name":"Beta ` + "\u0085" + `"},"x":null}
], "server_extra": "ignored"}`

// TestRecycleBinJSONIsLossless: --json writes each item as the server sent
// it (unknown fields kept, numbers as strings kept), in the server's order,
// one item a line, and the whole is valid JSON with the total.
func TestRecycleBinJSONIsLossless(t *testing.T) {
	r := runAgainst(t, jsonBody(binBody), "recycle-bin", "--json")
	var got struct {
		Items []map[string]any // the listing's one array
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &got.Items) != nil {
		t.Fatalf("exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	if len(got.Items) != 2 || got.Items[0]["id"] != "e1" || got.Items[1]["id"] != "e2" {
		t.Fatalf("%+v", got)
	}
	if _, ok := got.Items[0]["future_field"]; !ok {
		t.Errorf("unknown field dropped: %v", got.Items[0])
	}
	vp := got.Items[0]["vault_project"].(map[string]any)
	if vp["files_count"] != "3" || vp["new_flag"] != true {
		t.Errorf("project not as sent: %v", vp)
	}
	if _, ok := got.Items[1]["x"]; !ok {
		t.Errorf("null field dropped: %v", got.Items[1])
	}
	if strings.ContainsAny(r.stdout, "\x1b\u0085") {
		t.Errorf("control characters reached stdout: %q", r.stdout)
	}
	if n := strings.Count(r.stdout, "\n"); n != 4 {
		t.Errorf("%d lines, want 4 (open, two items, close):\n%s", n, r.stdout)
	}
}

func TestRecycleBinJSONLines(t *testing.T) {
	r := runAgainst(t, jsonBody(binBody), "--jsonl", "recycle-bin")
	if r.code != 0 {
		t.Fatalf("exit %d %q", r.code, r.stderr)
	}
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	var ids []string
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		ids = append(ids, m["id"].(string))
	}
	if strings.Join(ids, ",") != "e1,e2" {
		t.Errorf("ids %v", ids)
	}
}

// The human table keeps the server's order (newest deletion first, as the
// spec orders it and the console shows it) and sanitises server text.
func TestRecycleBinTableOrderAndSanitising(t *testing.T) {
	r := runAgainst(t, jsonBody(binBody), "recycle-bin")
	if r.code != 0 || strings.Index(r.stdout, "Alpha") > strings.Index(r.stdout, "Beta") || strings.ContainsAny(r.stdout, "\x1b\u0085") {
		t.Fatalf("exit %d %q", r.code, r.stdout)
	}
	if !strings.Contains(r.stdout, "2 of 2 shown") {
		t.Errorf("%q", r.stdout)
	}
}

func jsonBody(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}
}

// notifyWriter signals once its content holds want.
type notifyWriter struct {
	mu   sync.Mutex
	b    bytes.Buffer
	want string
	seen chan struct{}
}

func (w *notifyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if w.seen != nil && strings.Contains(w.b.String(), w.want) {
		close(w.seen)
		w.seen = nil
	}
	return len(p), nil
}

// TestPagedListingPrintsEachPageAsItArrives: page 2 is answered only once
// page 1's rows are on stdout (a guard turns a hold-everything client into a
// failure, not a hang), --jq and --template included. JSON output keeps
// unknown fields.
func TestPagedListingPrintsEachPageAsItArrives(t *testing.T) {
	for _, args := range [][]string{{"projects"}, {"projects", "--json"}, {"projects", "--jsonl"},
		{"projects", "--jq", ".[] | .name"}, {"projects", "--template", `{{range .}}{{.name}}{{"\n"}}{{end}}`}} {
		out := &notifyWriter{want: "first-project", seen: make(chan struct{})}
		seen := out.seen
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") == "2" {
				select {
				case <-seen:
				case <-time.After(10 * time.Second):
					w.WriteHeader(500)
					return
				}
				w.Write([]byte(`{"response":{"content":{"pagination":{"page":2,"total_pages":2},"projects":[{"id":"p2","name":"second-project"}]}}}`))
				return
			}
			w.Write([]byte(`{"response":{"content":{"pagination":{"page":1,"total_pages":2},"projects":[{"id":"p1","name":"first-project","brand_new":{"x":1}}]}}}`))
		}))
		var errb bytes.Buffer
		env := Env{Stdout: out, Stderr: &errb, Limits: api.Limits{Vault: -1},
			Getenv: func(k string) string {
				return map[string]string{"VAULTDECK_TOKEN": "tok-SECRET-123", "VAULTDECK_BASE_URL": srv.URL}[k]
			}}
		code := Main(context.Background(), args, env)
		srv.Close()
		got := out.b.String()
		if code != 0 || !strings.Contains(got, "second-project") {
			t.Fatalf("%v: exit %d, %q %q", args, code, got, errb.String())
		}
		if strings.HasPrefix(args[len(args)-1], "--json") && !strings.Contains(got, `"brand_new":{"x":1}`) {
			t.Errorf("%v: unknown field dropped: %q", args, got)
		}
		if args[len(args)-1] == "--json" {
			var list []map[string]any
			if err := json.Unmarshal([]byte(got), &list); err != nil || len(list) != 2 {
				t.Errorf("--json: %v %q", err, got)
			}
		}
	}
}

// TestSmallCommandsJSONIsLossless: users, status and whoami also print what
// the server sent, fields the client does not know included.
func TestSmallCommandsJSONIsLossless(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/whoami":
			w.Write([]byte(`{"user_id":"u1","org_unit":{"id":7}}`))
		case strings.HasSuffix(r.URL.Path, "/users"):
			w.Write([]byte(`{"status":"success","data":{"project_id":"p","users":[{"user_id":"u1","via_group":"legal"}]}}`))
		case r.URL.Path == "/api/v1/vault/get_files":
			w.Write([]byte(`{"response":{"content":[{"file_id":"0f8fad5b-d9cb-469f-a165-70867728950e","processing_status":"ready_to_query","page_count":12}]}}`))
		}
	})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"whoami", "--json"}, `"org_unit":{"id":7}`},
		{[]string{"users", "2f8fad5b-d9cb-469f-a165-70867728950e", "--json"}, `"via_group":"legal"`},
		{[]string{"status", "0f8fad5b-d9cb-469f-a165-70867728950e", "--json"}, `"page_count":12`},
		{[]string{"status", "0f8fad5b-d9cb-469f-a165-70867728950e", "1f8fad5b-d9cb-469f-a165-70867728950e", "--jsonl"}, `"error":"not_returned"`},
	} {
		r := runAgainst(t, h, tc.args...)
		if !strings.Contains(r.stdout, tc.want) {
			t.Errorf("%v: exit %d, %q lacks %s (%q)", tc.args, r.code, r.stdout, tc.want, r.stderr)
		}
	}
}
