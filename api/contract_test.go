package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestContractSimulatorAnswers decodes every answer of the simulator into
// the api types with unknown fields disallowed, so the two cannot drift: a
// field the simulator sends and the types do not name (or name wrongly)
// fails here, not silently in front of a user.
func TestContractSimulatorAnswers(t *testing.T) {
	srv := sim.New(sim.Options{Seed: 1, Control: true})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	tok := srv.Token("admin")
	do := func(method, path string, body []byte) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, hs.URL+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 300 && resp.StatusCode != http.StatusConflict && resp.StatusCode != http.StatusForbidden {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		return b
	}
	strict := func(what string, body []byte, v any) {
		t.Helper()
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			t.Errorf("%s: %v\nbody: %.300s", what, err, body)
		}
	}
	content := func(body []byte) []byte {
		var env struct {
			Response struct {
				Content json.RawMessage `json:"content"`
			} `json:"response"`
		}
		strict("envelope", body, &env)
		return env.Response.Content
	}

	var who WhoAmI
	strict("whoami", do("GET", "/api/whoami", nil), &who)

	var pp ProjectPage
	strict("projects", content(do("GET", "/api/v1/vault/workspace/projects?per_page=100", nil)), &pp)
	if len(pp.Projects) == 0 {
		t.Fatal("no projects")
	}
	pid := pp.Projects[0].ID

	var rb RecycleBin
	strict("recycle bin", do("GET", "/api/v1/vault/workspace/recycle_bin", nil), &rb)

	var fp FilePage
	strict("project files", content(do("GET", "/api/v1/vault/projects/"+pid+"/files?limit=100", nil)), &fp)

	var users ProjectUsers
	strict("project users", do("GET", "/api/v1/vault/projects/"+pid+"/users", nil), &users)

	if len(fp.Files) > 0 {
		var details []FileDetail
		strict("get_files", content(do("GET", "/api/v1/vault/get_files?file_ids="+fp.Files[0].ID, nil)), &details)
	}

	var earliest struct {
		Log *AuditEntry `json:"log"`
	}
	strict("audit earliest", do("GET", "/api/v1/logs/audit/earliest", nil), &earliest)
	if earliest.Log != nil {
		var page []AuditEntry
		strict("audit list", do("GET", "/api/v1/logs/audit?take=50&from="+earliest.Log.ID, nil), &page)
	}
	var latest, found struct {
		Log *AuditEntry `json:"log"`
	}
	strict("audit latest", do("GET", "/api/v1/logs/audit/latest", nil), &latest)
	strict("audit search", do("GET", fmt.Sprintf("/api/v1/logs/audit/search?time=%d", srv.Now().Add(-48*time.Hour).Unix()), nil), &found)
	if latest.Log == nil || found.Log == nil {
		t.Error("audit latest or search answered no log")
	}

	var del DeleteProjectResult
	strict("delete project", do("DELETE", "/api/v1/vault/delete_project/"+pp.Projects[len(pp.Projects)-1].ID, nil), &del)

	var md MatterDeletion
	strict("delete matters", do("DELETE", "/api/v2/matters", []byte(`{"matters":[{"client_id":"NOPE","matter_id":"0"}]}`)), &md)
	var mu MatterUpsert
	strict("upsert matters", do("POST", "/api/v2/matters", []byte(`{"matters":[{"client_id":"ACME","matter_id":"M-1"},{"client_id":"ACME","matter_id":"M-1"},{"client_id":" ","matter_id":"x"}]}`)), &mu)
	if !strings.Contains(string(do("GET", "/api/v1/client_matters", nil)), "[") {
		t.Error("client_matters is not a list")
	}
}
