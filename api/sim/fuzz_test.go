package sim_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// FuzzDeleteMatters throws arbitrary bodies at DELETE /api/v2/matters and
// checks the invariants: no panic; a 200 accounts for every submitted pair
// exactly once; a 400 deletes nothing.
func FuzzDeleteMatters(f *testing.F) {
	for _, seed := range []string{
		`{"matters":[{"client_id":"10482","matter_id":"2023-0007"},{"client_id":"20917","matter_id":"2022-0114"}]}`,
		`{"matters":[{"client_id":" a ","matter_id":"b"},{"client_id":"a","matter_id":" b"},{"client_id":"","matter_id":""}]}`,
		`{"matters":[{"client_id":"ACME","matter_id":"EU.M-12"},{"client_id":"40210","matter_id":"2024-0001"}]}`,
		`{"matters":[{"client_id":null,"matter_id":1,"x":[]}],"y":{}}`,
		`{"matters":[]}`,
		`[]`,
		`{"matters":`,
	} {
		f.Add([]byte(seed))
	}
	e := simtest.Start(f, simtest.Options{Sim: sim.Options{Seed: sim.DefaultSeed, Now: pinnedNow, NoRateLimit: true}})
	s, tok := e.Sim, e.Token("admin")
	f.Fuzz(func(t *testing.T, body []byte) {
		s.Reset()
		before := deletedSet(s)
		req, _ := http.NewRequest("DELETE", e.URL+"/api/v2/matters", strings.NewReader(string(body)))
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := e.HTTP.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		switch res.StatusCode {
		case 200:
			var in struct {
				Matters []json.RawMessage `json:"matters"`
			}
			if err := json.Unmarshal(body, &in); err != nil {
				t.Fatalf("200 for a body that does not decode: %v", err)
			}
			var out deleteResult
			if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
				t.Fatal(err)
			}
			if n := len(out.Deleted) + len(out.AlreadyAbsent) + len(out.Errors); n != len(in.Matters) {
				t.Fatalf("%d result items for %d pairs", n, len(in.Matters))
			}
			if got := len(deletedSet(s)) - len(before); got != len(out.Deleted) {
				t.Fatalf("%d matters deleted, %d reported", got, len(out.Deleted))
			}
		case 400:
			after := deletedSet(s)
			if len(after) != len(before) {
				t.Fatal("a 400 deleted matters")
			}
		default:
			t.Fatalf("status %d", res.StatusCode)
		}
	})
}

func deletedSet(s *sim.Server) map[string]bool {
	out := map[string]bool{}
	for _, m := range s.Matters() {
		if m.Deleted {
			out[m.ServiceID] = true
		}
	}
	return out
}
