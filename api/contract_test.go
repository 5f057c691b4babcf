package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestContractSimulatorAnswers decodes every answer of the simulator into
// the api types with unknown fields disallowed, so the two cannot drift: a
// field the simulator sends and the types do not name (or name wrongly)
// fails here, not silently in front of a user.
func TestContractSimulatorAnswers(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true}})
	tok := e.Token("admin")
	do := func(method, path string, body []byte) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, e.URL+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := e.HTTP.Do(req)
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

	var who api.WhoAmI
	strict("whoami", do("GET", "/api/whoami", nil), &who)

	var pp api.ProjectPage
	strict("projects", content(do("GET", "/api/v1/vault/workspace/projects?per_page=100", nil)), &pp)
	if len(pp.Projects) == 0 {
		t.Fatal("no projects")
	}
	pid := pp.Projects[0].ID

	var rb api.RecycleBin
	strict("recycle bin", do("GET", "/api/v1/vault/workspace/recycle_bin", nil), &rb)

	var fp api.FilePage
	strict("project files", content(do("GET", "/api/v1/vault/projects/"+pid+"/files?limit=100", nil)), &fp)

	var users api.ProjectUsers
	strict("project users", do("GET", "/api/v1/vault/projects/"+pid+"/users", nil), &users)

	if len(fp.Files) > 0 {
		var details []api.FileDetail
		strict("get_files", content(do("GET", "/api/v1/vault/get_files?file_ids="+fp.Files[0].ID, nil)), &details)
	}

	var earliest struct {
		Log *api.AuditEntry `json:"log"`
	}
	strict("audit earliest", do("GET", "/api/v1/logs/audit/earliest", nil), &earliest)
	if earliest.Log != nil {
		var page []api.AuditEntry
		strict("audit list", do("GET", "/api/v1/logs/audit?take=50&from="+earliest.Log.ID, nil), &page)
	}
	var latest, found struct {
		Log *api.AuditEntry `json:"log"`
	}
	strict("audit latest", do("GET", "/api/v1/logs/audit/latest", nil), &latest)
	strict("audit search", do("GET", fmt.Sprintf("/api/v1/logs/audit/search?time=%d", e.Sim.Now().Add(-48*time.Hour).Unix()), nil), &found)
	if latest.Log == nil || found.Log == nil {
		t.Error("audit latest or search answered no log")
	}

	var del api.DeleteProjectResult
	strict("delete project", do("DELETE", "/api/v1/vault/delete_project/"+pp.Projects[len(pp.Projects)-1].ID, nil), &del)

	var md api.MatterDeletion
	strict("delete matters", do("DELETE", "/api/v2/matters", []byte(`{"matters":[{"client_id":"NOPE","matter_id":"0"}]}`)), &md)
	var mu api.MatterUpsert
	strict("upsert matters", do("POST", "/api/v2/matters", []byte(`{"matters":[{"client_id":"ACME","matter_id":"M-1"},{"client_id":"ACME","matter_id":"M-1"},{"client_id":" ","matter_id":"x"}]}`)), &mu)
	if !strings.Contains(string(do("GET", "/api/v1/client_matters", nil)), "[") {
		t.Error("client_matters is not a list")
	}
}
