package sim_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

func codes(res deleteResult) []string {
	var out []string
	for _, e := range res.Errors {
		out = append(out, e.Error)
	}
	return out
}

// TestDeleteMattersRules has one case per numbered rule of DELETE /api/v2/matters.
func TestDeleteMattersRules(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, h *harness)
	}{
		{"1 every pair appears exactly once", func(t *testing.T, h *harness) {
			h.addMatter(sim.MatterSpec{ClientID: "R1", MatterID: "A"})
			in := []pair{{"R1", "A"}, {"R1", "B"}, {" ", "x"}, {"R1", "A"}, {sim.ConflictClientID, sim.ConflictMatterID}}
			res := h.deleteMatters(in...)
			if n := len(res.Deleted) + len(res.AlreadyAbsent) + len(res.Errors); n != len(in) {
				t.Fatalf("%d items for %d pairs: %+v", n, len(in), res)
			}
			if len(res.Deleted) != 1 || len(res.AlreadyAbsent) != 1 || len(res.Errors) != 3 {
				t.Fatalf("unexpected split %+v", res)
			}
		}},
		{"2 status 200 even with errors", func(t *testing.T, h *harness) {
			r := h.do("DELETE", "/api/v2/matters", h.admin(), body(pair{"", ""}))
			mustStatus(t, r, 200)
		}},
		{"3 identifiers are trimmed", func(t *testing.T, h *harness) {
			id := h.addMatter(sim.MatterSpec{ClientID: "R3", MatterID: "M-1"})
			res := h.deleteMatters(pair{"  R3\t", " M-1 "})
			if len(res.Deleted) != 1 || res.Deleted[0] != (pair{"R3", "M-1"}) {
				t.Fatalf("deleted item must carry trimmed values: %+v", res)
			}
			if !h.matter(id).Deleted {
				t.Fatal("matter not deleted")
			}
		}},
		{"4 stored name matches v1 matters, deleted ones too", func(t *testing.T, h *harness) {
			v1 := h.addMatter(sim.MatterSpec{StoredName: "R4.2020-1", V1: true})
			res := h.deleteMatters(pair{"R4", "2020-1"})
			if len(res.Deleted) != 1 || !h.matter(v1).Deleted {
				t.Fatalf("v1 matter not deleted by stored name: %+v", res)
			}
			gone := h.addMatter(sim.MatterSpec{StoredName: "R4.2020-2", V1: true, Deleted: true})
			res = h.deleteMatters(pair{"R4", "2020-2"})
			if len(res.AlreadyAbsent) != 1 || !h.matter(gone).Deleted {
				t.Fatalf("already-deleted v1 matter should match and be already_absent: %+v", res)
			}
		}},
		{"5 delimiter from workspace, '.' when unset or blank", func(t *testing.T, h *harness) {
			dash := h.addMatter(sim.MatterSpec{StoredName: "R5-77", V1: true})
			dot := h.addMatter(sim.MatterSpec{StoredName: "R5.78", V1: true})
			if res := h.deleteMatters(pair{"R5", "77"}); len(res.AlreadyAbsent) != 1 {
				t.Fatalf("'-' name must not match with default delimiter: %+v", res)
			}
			h.sim.SetDelimiter("   ")
			if res := h.deleteMatters(pair{"R5", "78"}); len(res.Deleted) != 1 || !h.matter(dot).Deleted {
				t.Fatalf("blank delimiter must fall back to '.': %+v", res)
			}
			h.sim.SetDelimiter("-")
			if res := h.deleteMatters(pair{"R5", "77"}); len(res.Deleted) != 1 || !h.matter(dash).Deleted {
				t.Fatalf("'-' delimiter must match: %+v", res)
			}
		}},
		{"6 never delimiter_required", func(t *testing.T, h *harness) {
			h.sim.SetDelimiter("")
			r := h.do("DELETE", "/api/v2/matters", h.admin(), body(pair{"R6", "X"}))
			mustStatus(t, r, 200)
			if strings.Contains(string(r.body), "delimiter_required") {
				t.Fatalf("got delimiter_required: %s", r.body)
			}
		}},
		{"7 no match (unknown client too) is already_absent; repeat is safe", func(t *testing.T, h *harness) {
			h.addMatter(sim.MatterSpec{ClientID: "R7", MatterID: "A"})
			res := h.deleteMatters(pair{"NO-SUCH-CLIENT", "A"}, pair{"R7", "NO-SUCH-MATTER"}, pair{"R7", "A"})
			if len(res.AlreadyAbsent) != 2 || len(res.Deleted) != 1 {
				t.Fatalf("%+v", res)
			}
			res = h.deleteMatters(pair{"R7", "A"})
			if len(res.AlreadyAbsent) != 1 || res.AlreadyAbsent[0] != (pair{"R7", "A"}) {
				t.Fatalf("repeat should be already_absent: %+v", res)
			}
		}},
		{"8 duplicate after trimming; earlier processed", func(t *testing.T, h *harness) {
			id := h.addMatter(sim.MatterSpec{ClientID: "R8", MatterID: "A"})
			res := h.deleteMatters(pair{"R8", "A"}, pair{" R8", "A "})
			if len(res.Deleted) != 1 || !h.matter(id).Deleted {
				t.Fatalf("earlier pair not processed: %+v", res)
			}
			if len(res.Errors) != 1 || res.Errors[0].Error != sim.ErrDuplicatePair || res.Errors[0].ClientID != " R8" {
				t.Fatalf("want duplicate_pair with raw values: %+v", res)
			}
		}},
		{"9 ethical wall blocks linked matters only while enforced", func(t *testing.T, h *harness) {
			linked := h.addMatter(sim.MatterSpec{ClientID: "R9", MatterID: "L", ExternallyLinked: true})
			plain := h.addMatter(sim.MatterSpec{ClientID: "R9", MatterID: "P"})
			h.sim.SetEthicalWall(true)
			res := h.deleteMatters(pair{"R9", "L"}, pair{"R9", "P"})
			if !slices.Equal(codes(res), []string{sim.ErrBlocked}) || h.matter(linked).Deleted || !h.matter(plain).Deleted {
				t.Fatalf("%+v", res)
			}
			h.sim.SetEthicalWall(false)
			res = h.deleteMatters(pair{"R9", "L"})
			if len(res.Deleted) != 1 || !h.matter(linked).Deleted {
				t.Fatalf("not enforced: linked matter should delete: %+v", res)
			}
		}},
		{"10 exactly one error per failed pair", func(t *testing.T, h *harness) {
			res := h.deleteMatters(pair{" ", ""}, pair{" ", ""})
			if !slices.Equal(codes(res), []string{sim.ErrInvalidClientID, sim.ErrInvalidClientID}) {
				t.Fatalf("%+v", res)
			}
		}},
		{"11 a 400 deletes nothing", func(t *testing.T, h *harness) {
			id := h.addMatter(sim.MatterSpec{ClientID: "R11", MatterID: "A"})
			r := h.do("DELETE", "/api/v2/matters", h.admin(),
				`{"matters":[{"client_id":"R11","matter_id":"A"},{"client_id":"R11"}]}`)
			mustStatus(t, r, 400)
			if h.matter(id).Deleted {
				t.Fatal("400 deleted a matter")
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, newHarness(t)) })
	}
}

// TestDeleteMattersCodes has one case per per-pair error code.
func TestDeleteMattersCodes(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(h *harness)
		in     []pair
		want   []string // error codes in order
		echoed []pair   // raw values of the error items
	}{
		{"invalid_client_id", nil, []pair{{" \t", "A"}}, []string{sim.ErrInvalidClientID}, []pair{{" \t", "A"}}},
		{"invalid_matter_id", nil, []pair{{"C", "  "}}, []string{sim.ErrInvalidMatterID}, []pair{{"C", "  "}}},
		{"duplicate_pair", nil, []pair{{"C", "A"}, {"C ", " A"}}, []string{sim.ErrDuplicatePair}, []pair{{"C ", " A"}}},
		{"identity_conflict: pair and stored name name different matters", nil,
			[]pair{{" " + sim.ConflictClientID, sim.ConflictMatterID}}, []string{sim.ErrIdentityConflict},
			[]pair{{" " + sim.ConflictClientID, sim.ConflictMatterID}}},
		{"identity_conflict: stored name shared by two v1 matters", func(h *harness) {
			h.addMatter(sim.MatterSpec{StoredName: "IC.9", V1: true})
			h.addMatter(sim.MatterSpec{StoredName: "IC.9", V1: true, Deleted: true})
		}, []pair{{"IC", "9"}}, []string{sim.ErrIdentityConflict}, []pair{{"IC", "9"}}},
		{"identity_conflict: joined names collide (ACME.EU/M-12 vs ACME/EU.M-12)", nil,
			[]pair{{"ACME.EU", "M-12"}, {"ACME", "EU.M-12"}},
			[]string{sim.ErrIdentityConflict, sim.ErrIdentityConflict}, []pair{{"ACME.EU", "M-12"}, {"ACME", "EU.M-12"}}},
		{"name_collision: second pair reaches the same matter by stored name", func(h *harness) {
			h.addMatter(sim.MatterSpec{ClientID: "AB", MatterID: "C.D"}) // stored name AB.C.D
		}, []pair{{"AB", "C.D"}, {"AB.C", "D"}}, []string{sim.ErrNameCollision}, []pair{{"AB.C", "D"}}},
		{"name_collision: two pairs join to one v1 stored name", func(h *harness) {
			h.addMatter(sim.MatterSpec{StoredName: "NC.A.B", V1: true})
		}, []pair{{"NC.A", "B"}, {"NC", "A.B"}}, []string{sim.ErrNameCollision}, []pair{{"NC", "A.B"}}},
		{"blocked_by_ethical_wall", nil, []pair{{sim.LinkedClientID + " ", sim.LinkedMatterID}},
			[]string{sim.ErrBlocked}, []pair{{sim.LinkedClientID + " ", sim.LinkedMatterID}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			if c.setup != nil {
				c.setup(h)
			}
			before := h.sim.Matters()
			res := h.deleteMatters(c.in...)
			if !slices.Equal(codes(res), c.want) {
				t.Fatalf("codes %v, want %v (%+v)", codes(res), c.want, res)
			}
			for i, e := range res.Errors {
				if (pair{e.ClientID, e.MatterID}) != c.echoed[i] || e.Detail == "" {
					t.Errorf("error item %d = %+v, want raw %+v and a detail", i, e, c.echoed[i])
				}
			}
			if n := len(res.Deleted) + len(res.AlreadyAbsent) + len(res.Errors); n != len(c.in) {
				t.Errorf("%d items for %d pairs", n, len(c.in))
			}
			// A matter named by a failed pair must not change.
			after := h.sim.Matters()
			for i := range before {
				if before[i].Deleted != after[i].Deleted && len(res.Deleted) == 0 {
					t.Errorf("matter %s changed although nothing was deleted", before[i].StoredName)
				}
			}
		})
	}
}

func TestNameCollisionFirstProcessed(t *testing.T) {
	h := newHarness(t)
	id := h.addMatter(sim.MatterSpec{ClientID: "AB", MatterID: "C.D"})
	res := h.deleteMatters(pair{"AB.C", "D"}, pair{"AB", "C.D"}) // by name first, by pair second
	if len(res.Deleted) != 1 || res.Deleted[0] != (pair{"AB.C", "D"}) || !h.matter(id).Deleted {
		t.Fatalf("first pair must delete: %+v", res)
	}
	if !slices.Equal(codes(res), []string{sim.ErrNameCollision}) {
		t.Fatalf("%+v", res)
	}
}

func TestDeleteKeepsClientAndUpsertRestores(t *testing.T) {
	h := newHarness(t)
	id := h.addMatter(sim.MatterSpec{ClientID: "K1", MatterID: "A", ExternallyLinked: true})
	h.sim.SetEthicalWall(false)
	h.deleteMatters(pair{"K1", "A"})
	if !h.matter(id).Deleted {
		t.Fatal("not deleted")
	}
	res := h.upsert(pair{" K1 ", "A"}, pair{"K1", "B"}, pair{"K1", "B "})
	if len(res.Restored) != 1 || res.Restored[0] != (pair{"K1", "A"}) || len(res.Created) != 1 {
		t.Fatalf("%+v", res)
	}
	if len(res.Errors) != 1 || res.Errors[0].Error != sim.ErrDuplicatePair {
		t.Fatalf("%+v", res)
	}
	m := h.matter(id)
	if m.Deleted || !m.ExternallyLinked {
		t.Fatalf("restored matter lost state: %+v", m)
	}
	if res := h.upsert(pair{"K1", "A"}); len(res.Unchanged) != 1 {
		t.Fatalf("%+v", res)
	}
	// A v1 matter deleted through its stored name comes back the same way.
	v1 := h.addMatter(sim.MatterSpec{StoredName: "K2.Z", V1: true})
	h.deleteMatters(pair{"K2", "Z"})
	if res := h.upsert(pair{"K2", "Z"}); len(res.Restored) != 1 || h.matter(v1).Deleted {
		t.Fatalf("v1 restore: %+v", res)
	}
}

type vErr struct {
	Loc  []any  `json:"loc"`
	Type string `json:"type"`
}

type batchErr struct {
	Error            string `json:"error"`
	Detail           string `json:"detail"`
	ValidationErrors []vErr `json:"validation_errors"`
}

func locString(loc []any) string { return fmt.Sprint(loc) }

func TestDeleteMatters400(t *testing.T) {
	const secret = "S3CR3T-VALUE"
	cases := []struct {
		name string
		body string
		want []string // "loc type" entries
	}{
		{"not json", `{"matters":`, []string{"[] json_invalid"}},
		{"array body", `[{"client_id":"` + secret + `"}]`, []string{"[] dict_type"}},
		{"string body", `"` + secret + `"`, []string{"[] dict_type"}},
		{"missing matters", `{}`, []string{"[matters] missing"}},
		{"matters null", `{"matters":null}`, []string{"[matters] list_type"}},
		{"matters wrong type", `{"matters":"` + secret + `"}`, []string{"[matters] list_type"}},
		{"empty batch", `{"matters":[]}`, []string{"[matters] too_short"}},
		{"unknown top-level field", `{"matters":[{"client_id":"a","matter_id":"b"}],"force":"` + secret + `"}`,
			[]string{"[force] extra_forbidden"}},
		{"item not object", `{"matters":["` + secret + `"]}`, []string{"[matters 0] dict_type"}},
		{"missing field", `{"matters":[{"client_id":"a","matter_id":"b"},{"client_id":"` + secret + `"}]}`,
			[]string{"[matters 1 matter_id] missing"}},
		{"wrong type", `{"matters":[{"client_id":12345,"matter_id":["` + secret + `"]}]}`,
			[]string{"[matters 0 client_id] string_type", "[matters 0 matter_id] string_type"}},
		{"null field", `{"matters":[{"client_id":null,"matter_id":"` + secret + `"}]}`,
			[]string{"[matters 0 client_id] string_type"}},
		{"unknown field in pair", `{"matters":[{"client_id":"a","matter_id":"b","name":"` + secret + `"}]}`,
			[]string{"[matters 0 name] extra_forbidden"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			for _, method := range []string{"DELETE", "POST"} {
				r := h.do(method, "/api/v2/matters", h.admin(), c.body)
				mustStatus(t, r, 400)
				if strings.Contains(string(r.body), secret) {
					t.Fatalf("value echoed: %s", r.body)
				}
				var be batchErr
				r.json(t, &be)
				if be.Error != "invalid_request" || be.Detail == "" {
					t.Fatalf("%+v", be)
				}
				var got []string
				for _, v := range be.ValidationErrors {
					for _, l := range v.Loc {
						switch l.(type) {
						case string, float64: // JSON numbers decode as float64
						default:
							t.Fatalf("loc entry %v of type %T", l, l)
						}
					}
					got = append(got, locString(v.Loc)+" "+v.Type)
				}
				if !slices.Equal(got, c.want) {
					t.Fatalf("%s: validation_errors %v, want %v", method, got, c.want)
				}
			}
		})
	}
}

func TestTooManyItems(t *testing.T) {
	h := newHarness(t)
	id := h.addMatter(sim.MatterSpec{ClientID: "T", MatterID: "0"})
	pairs := make([]pair, sim.MaxPairs+1)
	for i := range pairs {
		pairs[i] = pair{"T", fmt.Sprint(i)}
	}
	r := h.do("DELETE", "/api/v2/matters", h.admin(), body(pairs...))
	mustStatus(t, r, 400)
	var be batchErr
	r.json(t, &be)
	if be.Error != "too_many_items" || h.matter(id).Deleted {
		t.Fatalf("%+v deleted=%v", be, h.matter(id).Deleted)
	}
	res := h.deleteMatters(pairs[:sim.MaxPairs]...)
	if len(res.Deleted) != 1 || len(res.AlreadyAbsent) != sim.MaxPairs-1 {
		t.Fatalf("10,000 pairs: %d deleted, %d absent", len(res.Deleted), len(res.AlreadyAbsent))
	}
}
