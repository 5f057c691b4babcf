package cli

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// badAnswers are first answers a listing must not start its output for.
var badAnswers = map[string]func(w http.ResponseWriter){
	"malformed": func(w http.ResponseWriter) { w.Write([]byte(`{"items":[{"id":`)) },
	"html": func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><title>Sign in to the guest Wi-Fi</title></html>`))
	},
	"empty": func(w http.ResponseWriter) {},
	"401":   func(w http.ResponseWriter) { w.WriteHeader(401); w.Write([]byte(`{"error":"expired"}`)) },
	"422":   func(w http.ResponseWriter) { w.WriteHeader(422); w.Write([]byte(`{"detail":"bad query"}`)) },
	"500":   func(w http.ResponseWriter) { w.WriteHeader(500); w.Write([]byte(`{"error":"boom"}`)) },
}

// listingCommands are the listings that stream: each with the JSON its
// first page would have held.
var listingCommands = [][]string{
	{"projects"}, {"audit"}, {"recycle-bin"}, {"files", "2f8fad5b-d9cb-469f-a165-70867728950e"},
}

// TestNothingOnStdoutBeforeAGoodAnswer: whatever the first answer of a
// listing is (malformed, HTML, empty, 401, 422, 500), --json and --jsonl
// leave stdout empty and the error is one line with exit 1.
func TestNothingOnStdoutBeforeAGoodAnswer(t *testing.T) {
	for name, bad := range badAnswers {
		for _, cmd := range listingCommands {
			for _, format := range []string{"--json", "--jsonl"} {
				r := runAgainst(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { bad(w) }), append(cmd, format)...)
				if r.code != 1 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("%s %v %s: exit %d, stdout %q, stderr %q", name, cmd, format, r.code, r.stdout, r.stderr)
				}
			}
		}
	}
}

// TestEmptyListingIsAnEmptyDocument: a complete, empty listing is still a
// whole document under --json ([] or the bin's object) and nothing under
// --jsonl.
func TestEmptyListingIsAnEmptyDocument(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/v1/vault/workspace/projects":
			w.Write([]byte(`{"response":{"content":{"pagination":{"page":1,"total_pages":0},"projects":[]}}}`))
		case strings.HasSuffix(r.URL.Path, "/files"):
			w.Write([]byte(`{"response":{"content":{"files":[],"pagination":{"has_more":false}}}}`))
		case r.URL.Path == "/api/v1/vault/workspace/recycle_bin":
			w.Write([]byte(`{"items":[],"total":0}`))
		default: // the audit log: no earliest entry
			w.WriteHeader(404)
			w.Write([]byte(`{"error":"no entries"}`))
		}
	})
	want := map[string]string{"projects": "[]\n", "audit": "[]\n", "files": "[]\n", "recycle-bin": "[]\n"}
	for _, cmd := range listingCommands {
		r := runAgainst(t, h, append(cmd, "--json")...)
		if r.code != 0 || r.stdout != want[cmd[0]] {
			t.Errorf("%v --json: exit %d, stdout %q (want %q), stderr %q", cmd, r.code, r.stdout, want[cmd[0]], r.stderr)
		}
		var v any
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Errorf("%v --json: %v", cmd, err)
		}
		r = runAgainst(t, h, append(cmd, "--jsonl")...)
		if r.code != 0 || r.stdout != "" {
			t.Errorf("%v --jsonl: exit %d, stdout %q, stderr %q", cmd, r.code, r.stdout, r.stderr)
		}
	}
}

// TestLaterPageFailureSaysHowManyItemsWereWritten: page 1 is good, page 2
// a 500: exit 1, one line that says how many items are on stdout.
func TestLaterPageFailureSaysHowManyItemsWereWritten(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "2" {
			w.WriteHeader(500)
			w.Write([]byte(`{"error":"boom"}`))
			return
		}
		w.Write([]byte(`{"response":{"content":{"pagination":{"page":1,"total_pages":2},"projects":[{"id":"p1","name":"one"},{"id":"p2","name":"two"}]}}}`))
	})
	for _, args := range [][]string{{"projects", "--json"}, {"projects", "--jsonl"}, {"projects"}} {
		r := runAgainst(t, h, args...)
		if r.code != 1 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "2 items were written") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, `"two"`) && !strings.Contains(r.stdout, "two") {
			t.Errorf("%v: the first page is missing: %q", args, r.stdout)
		}
	}
}

// TestBinFailureMidwaySaysHowManyItemsWereWritten: the bin is one
// response; when it breaks after two items, the line says so.
func TestBinFailureMidwaySaysHowManyItemsWereWritten(t *testing.T) {
	body := `{"items":[{"id":"e1"},{"id":"e2"},{"id":`
	for _, f := range []string{"--json", "--jsonl"} {
		r := runAgainst(t, jsonBody(body), "recycle-bin", f)
		if r.code != 1 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "2 items were written") || !strings.Contains(r.stdout, `"e2"`) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", f, r.code, r.stdout, r.stderr)
		}
	}
}

// TestJSONIsValidUTF8: a server string with invalid UTF-8 (0x9b alone, a
// C1 CSI on 8-bit terminals), raw C0 and encoded C1 controls: --json and
// --jsonl are valid UTF-8 JSON with the controls escaped, and everything
// else is as the server sent it.
func TestJSONIsValidUTF8(t *testing.T) {
	body := "{\"total\":1,\"items\":[{\"id\":\"e1\",\"vault_project\":{\"name\":\"A\x9b31mB \xc2\x9b C\x1bD \xe2\x80\xa8 \u00e9\\u00e9 \xff\xfe end\"}}]}"
	for _, args := range [][]string{{"recycle-bin", "--json"}, {"recycle-bin", "--jsonl"}} {
		r := runAgainst(t, jsonBody(body), args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d %q", args, r.code, r.stderr)
		}
		if !utf8.ValidString(r.stdout) {
			t.Errorf("%v: invalid UTF-8 on stdout: %q", args, r.stdout)
		}
		if strings.ContainsAny(r.stdout, "\x1b\u009b") {
			t.Errorf("%v: a control reached stdout: %q", args, r.stdout)
		}
		line := r.stdout
		if args[1] == "--json" {
			var v []json.RawMessage
			if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || len(v) != 1 {
				t.Fatalf("%v: %v %q", args, err, r.stdout)
			}
			line = string(v[0])
		}
		var e struct {
			VaultProject struct{ Name string } `json:"vault_project"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%v: %v %q", args, err, line)
		}
		if want := "A\uFFFD31mB \u009b C\x1bD \u2028 éé \uFFFD\uFFFD end"; e.VaultProject.Name != want {
			t.Errorf("%v: name %q, want %q", args, e.VaultProject.Name, want)
		}
		if !strings.Contains(r.stdout, `\u00e9`) || !strings.Contains(r.stdout, "é") {
			t.Errorf("%v: not as sent: %q", args, r.stdout)
		}
	}
}
