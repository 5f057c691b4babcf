package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestChangeProjectUsersSendsAndReads: POST and DELETE send the bodies of
// facts §4.9 to the project's users path and read the answers' lists.
func TestChangeProjectUsersSendsAndReads(t *testing.T) {
	var got []string
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.URL.Path+" "+string(b))
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			io.WriteString(w, `{"status":"COMPLETED","data":{"project_id":"p1","added":[{"email":"a@x","access_level":"READ"}],`+
				`"updated":[{"email":"b@x","access_level":"MANAGE","previous_access_level":"READ"}],"failed":[{"email":"c@x","reason":"owner"}]}}`)
			return
		}
		io.WriteString(w, `{"status":"COMPLETED","data":{"project_id":"p1","removed":["a@x"],"failed":[{"email":"b@x","reason":"inherited"}]}}`)
	}))
	ctx := context.Background()
	up, err := h.c.UpdateProjectUsers(ctx, "p1", []UserAccess{{"a@x", "READ"}, {"b@x", "MANAGE"}, {"c@x", "READ"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(up.Added) != 1 || up.Added[0].Email != "a@x" || up.Updated[0].PreviousAccessLevel != "READ" || up.Failed[0].Reason != "owner" {
		t.Fatalf("update: %+v", up)
	}
	rm, err := h.c.RemoveProjectUsers(ctx, "p1", []string{"a@x", "b@x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rm.Removed) != 1 || rm.Removed[0] != "a@x" || rm.Failed[0].Email != "b@x" {
		t.Fatalf("remove: %+v", rm)
	}
	want := []string{
		`POST /api/v1/vault/projects/p1/users {"users":[{"email":"a@x","access_level":"READ"},{"email":"b@x","access_level":"MANAGE"},{"email":"c@x","access_level":"READ"}]}`,
		`DELETE /api/v1/vault/projects/p1/users {"emails":["a@x","b@x"]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sent\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAChangeAnswerSaysOnlyWhatItCanMean: an answer that names a level
// the interface does not know, a user twice, a user not asked about, the
// wrong project or a status other than COMPLETED proves nothing about
// what changed: it is a malformed answer, never an outcome.
func TestAChangeAnswerSaysOnlyWhatItCanMean(t *testing.T) {
	post := map[string]string{
		"unknown level":         `{"status":"COMPLETED","data":{"project_id":"p1","added":[{"email":"a@x","access_level":"OWNER"}],"updated":[],"failed":[]}}`,
		"unknown previous":      `{"status":"COMPLETED","data":{"project_id":"p1","added":[],"updated":[{"email":"a@x","access_level":"READ","previous_access_level":"EDIT"}],"failed":[]}}`,
		"a level not asked for": `{"status":"COMPLETED","data":{"project_id":"p1","added":[{"email":"a@x","access_level":"MANAGE"}],"updated":[],"failed":[]}}`,
		"repeated":              `{"status":"COMPLETED","data":{"project_id":"p1","added":[{"email":"a@x","access_level":"READ"}],"updated":[],"failed":[{"email":"A@x","reason":"r"}]}}`,
		"not asked":             `{"status":"COMPLETED","data":{"project_id":"p1","added":[{"email":"z@x","access_level":"READ"}],"updated":[],"failed":[]}}`,
		"other project":         `{"status":"COMPLETED","data":{"project_id":"p2","added":[{"email":"a@x","access_level":"READ"}],"updated":[],"failed":[]}}`,
		"pending":               `{"status":"PENDING","data":{"project_id":"p1","added":[{"email":"a@x","access_level":"READ"}],"updated":[],"failed":[]}}`,
		"not an object":         `[]`,
	}
	for name, body := range post {
		h := newHarness(t, jsonHandler(200, body))
		_, err := h.c.UpdateProjectUsers(context.Background(), "p1", []UserAccess{{"a@x", "READ"}})
		if kindOf(err) != KindMalformed {
			t.Errorf("POST, %s: %v, want a malformed answer", name, err)
		}
	}
	del := map[string]string{
		"repeated":      `{"status":"COMPLETED","data":{"project_id":"p1","removed":["a@x","a@x"],"failed":[]}}`,
		"not asked":     `{"status":"COMPLETED","data":{"project_id":"p1","removed":["z@x"],"failed":[]}}`,
		"other project": `{"status":"COMPLETED","data":{"project_id":"p2","removed":["a@x"],"failed":[]}}`,
	}
	for name, body := range del {
		h := newHarness(t, jsonHandler(200, body))
		_, err := h.c.RemoveProjectUsers(context.Background(), "p1", []string{"a@x"})
		if kindOf(err) != KindMalformed {
			t.Errorf("DELETE, %s: %v, want a malformed answer", name, err)
		}
	}
	// A user the answer leaves out is not an error: the caller names it
	// as not proven (Missing).
	h := newHarness(t, jsonHandler(200, `{"status":"COMPLETED","data":{"project_id":"p1","removed":["a@x"],"failed":[]}}`))
	rm, err := h.c.RemoveProjectUsers(context.Background(), "p1", []string{"a@x", "b@x"})
	if err != nil || strings.Join(rm.Missing, ",") != "b@x" {
		t.Fatalf("a user left out: %+v %v", rm, err)
	}
	// Nothing is sent for an empty project ID, an empty list or a repeat.
	for name, f := range map[string]func(c *Client) error{
		"no project": func(c *Client) error {
			_, err := c.RemoveProjectUsers(context.Background(), " ", []string{"a@x"})
			return err
		},
		"no users": func(c *Client) error { _, err := c.UpdateProjectUsers(context.Background(), "p1", nil); return err },
		"repeat": func(c *Client) error {
			_, err := c.RemoveProjectUsers(context.Background(), "p1", []string{"a@x", "A@X"})
			return err
		},
		"bad level": func(c *Client) error {
			_, err := c.UpdateProjectUsers(context.Background(), "p1", []UserAccess{{"a@x", "OWNER"}})
			return err
		},
	} {
		sent := false
		h := newHarness(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { sent = true }))
		if err := f(h.c); kindOf(err) != KindInvalidRequest || sent {
			t.Errorf("%s: %v (sent %v), want refused before sending", name, err, sent)
		}
	}
}

// TestDirectSharesOfTheListing: the listing's user_shares read as direct
// shares with the levels the users endpoint uses; a permission level the
// interface does not know or a person shared twice is an error.
func TestDirectSharesOfTheListing(t *testing.T) {
	s := Sharing{UserShares: RawJSON(`[{"dest_user_email":"a@x","dest_user_id":"u1","permission_level":"VIEW"},{"dest_user_email":"b@x","permission_level":"EDIT"}]`)}
	got, err := s.Direct()
	if err != nil || len(got) != 2 || got[0].Email != "a@x" || got[0].AccessLevel != "READ" || got[1].AccessLevel != "MANAGE" {
		t.Fatalf("%+v %v", got, err)
	}
	for name, raw := range map[string]string{
		"unknown level": `[{"dest_user_email":"a@x","permission_level":"OWNER"}]`,
		"twice":         `[{"dest_user_email":"a@x","permission_level":"VIEW"},{"dest_user_email":"A@x","permission_level":"EDIT"}]`,
		"no email":      `[{"permission_level":"VIEW"}]`,
		"not a list":    `{}`,
	} {
		s := Sharing{UserShares: RawJSON(raw)}
		if _, err := s.Direct(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	var none Sharing
	if got, err := none.Direct(); err != nil || len(got) != 0 {
		t.Errorf("no user_shares: %v %v", got, err)
	}
	_ = json.Valid
}
