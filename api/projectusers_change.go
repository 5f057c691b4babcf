package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// Changing who reaches a project (public-api-facts §4.9): POST adds or
// updates users by e-mail at a level, additively; DELETE removes direct
// workspace-user shares by e-mail, leaving inherited access. Both need
// Vault API and Vault sharing and draw from the vault budget. Neither is
// repeated automatically: whether a change was made is decided by the
// caller's journal from this answer or a fresh read, never by sending it
// again blind.

// Access levels of the interface (the spec's observed values). An answer
// with any other level is malformed: a level nothing here can name is not
// an outcome anyone can check or undo.
const (
	AccessManage = "MANAGE"
	AccessRead   = "READ"
)

// KnownLevel says whether level is one the interface names.
func KnownLevel(level string) bool { return level == AccessManage || level == AccessRead }

// UserAccess is one user of a POST: an e-mail and the level to give.
type UserAccess struct {
	Email       string `json:"email"`
	AccessLevel string `json:"access_level"`
}

// UserUpdate is an updated user: the level given and the direct share's
// level before it.
type UserUpdate struct {
	Email               string `json:"email"`
	AccessLevel         string `json:"access_level"`
	PreviousAccessLevel string `json:"previous_access_level"`
}

// UserFailure is a user the service did not change, with its reason (the
// service's own sentence: shown as sent, never parsed).
type UserFailure struct {
	Email  string `json:"email"`
	Reason string `json:"reason"`
}

// UsersChange is the answer of a POST or DELETE of project users, checked
// against the request: every user named at most once, each one asked
// about, levels the interface knows. Missing lists the users asked about
// that the answer does not name: their outcome is not proven.
type UsersChange struct {
	ProjectID string        `json:"project_id"`
	Added     []UserAccess  `json:"added"`
	Updated   []UserUpdate  `json:"updated"`
	Removed   []string      `json:"removed"`
	Failed    []UserFailure `json:"failed"`
	Missing   []string      `json:"missing"`
}

// UpdateProjectUsers adds or updates users of a project (POST
// /api/v1/vault/projects/{project_id}/users).
func (c *Client) UpdateProjectUsers(ctx context.Context, projectID string, users []UserAccess) (*UsersChange, error) {
	ep := epUpdateUsers
	asked := make([]string, 0, len(users))
	want := map[string]string{}
	for _, u := range users {
		if !KnownLevel(u.AccessLevel) {
			return nil, &Error{Kind: KindInvalidRequest, Endpoint: ep.String(), Message: fmt.Sprintf("access level %q: the interface knows MANAGE and READ", u.AccessLevel)}
		}
		asked = append(asked, u.Email)
		want[strings.ToLower(strings.TrimSpace(u.Email))] = u.AccessLevel
	}
	if err := checkAsked(ep, projectID, asked); err != nil {
		return nil, err
	}
	var body struct {
		Status string `json:"status"`
		Data   struct {
			ProjectID string        `json:"project_id"`
			Added     []UserAccess  `json:"added"`
			Updated   []UserUpdate  `json:"updated"`
			Failed    []UserFailure `json:"failed"`
		} `json:"data"`
	}
	if err := c.usersCall(ctx, ep, projectID, struct {
		Users []UserAccess `json:"users"`
	}{users}, &body); err != nil {
		return nil, err
	}
	out := &UsersChange{ProjectID: body.Data.ProjectID, Added: body.Data.Added, Updated: body.Data.Updated, Failed: body.Data.Failed}
	m := newMatcher(ep, projectID, asked)
	if err := m.answer(body.Status, out.ProjectID); err != nil {
		return nil, err
	}
	for _, a := range out.Added {
		if err := m.named(a.Email, "added"); err != nil {
			return nil, err
		}
		if a.AccessLevel != want[strings.ToLower(strings.TrimSpace(a.Email))] {
			return nil, m.malformed("it says %s was added at %q, not the level asked for", a.Email, a.AccessLevel)
		}
	}
	for _, u := range out.Updated {
		if err := m.named(u.Email, "updated"); err != nil {
			return nil, err
		}
		if u.AccessLevel != want[strings.ToLower(strings.TrimSpace(u.Email))] || !KnownLevel(u.PreviousAccessLevel) {
			return nil, m.malformed("it says %s was updated to %q from %q: not the level asked for, or a level the interface does not name", u.Email, u.AccessLevel, u.PreviousAccessLevel)
		}
	}
	for _, f := range out.Failed {
		if err := m.named(f.Email, "failed"); err != nil {
			return nil, err
		}
	}
	out.Missing = m.missing()
	return out, nil
}

// RemoveProjectUsers removes users' direct shares of a project (DELETE
// /api/v1/vault/projects/{project_id}/users).
func (c *Client) RemoveProjectUsers(ctx context.Context, projectID string, emails []string) (*UsersChange, error) {
	ep := epRemoveUsers
	if err := checkAsked(ep, projectID, emails); err != nil {
		return nil, err
	}
	var body struct {
		Status string `json:"status"`
		Data   struct {
			ProjectID string        `json:"project_id"`
			Removed   []string      `json:"removed"`
			Failed    []UserFailure `json:"failed"`
		} `json:"data"`
	}
	if err := c.usersCall(ctx, ep, projectID, struct {
		Emails []string `json:"emails"`
	}{emails}, &body); err != nil {
		return nil, err
	}
	out := &UsersChange{ProjectID: body.Data.ProjectID, Removed: body.Data.Removed, Failed: body.Data.Failed}
	m := newMatcher(ep, projectID, emails)
	if err := m.answer(body.Status, out.ProjectID); err != nil {
		return nil, err
	}
	for _, e := range out.Removed {
		if err := m.named(e, "removed"); err != nil {
			return nil, err
		}
	}
	for _, f := range out.Failed {
		if err := m.named(f.Email, "failed"); err != nil {
			return nil, err
		}
	}
	out.Missing = m.missing()
	return out, nil
}

// checkAsked refuses, before anything is sent, a request without a
// project, without users or naming one twice (the answer could not then
// say which of the two it means).
func checkAsked(ep endpoint, projectID string, emails []string) error {
	if err := requireID(ep, "project ID", projectID); err != nil {
		return err
	}
	if len(emails) == 0 {
		return &Error{Kind: KindInvalidRequest, Endpoint: ep.String(), Message: "at least one user is required"}
	}
	seen := map[string]bool{}
	for _, e := range emails {
		k := strings.ToLower(strings.TrimSpace(e))
		if k == "" || seen[k] {
			return &Error{Kind: KindInvalidRequest, Endpoint: ep.String(), Message: fmt.Sprintf("the user %q is empty or named twice", e)}
		}
		seen[k] = true
	}
	return nil
}

func (c *Client) usersCall(ctx context.Context, ep endpoint, projectID string, req, v any) error {
	payload, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("encoding the users: %w", err)
	}
	resp, red, err := c.send(ctx, call{ep: ep, path: "/api/v1/vault/projects/" + url.PathEscape(projectID) + "/users",
		body: func() (io.ReadCloser, string, func() error, error) {
			return io.NopCloser(bytes.NewReader(payload)), "application/json", nil, nil
		}, length: int64(len(payload))})
	if err != nil {
		return err
	}
	return c.decodeJSON(resp, ep, red, v)
}

// matcher holds an answer to its request: each user asked about named
// once at most, nobody else.
type matcher struct {
	ep        endpoint
	projectID string
	asked     []string
	left      map[string]bool
}

func newMatcher(ep endpoint, projectID string, asked []string) *matcher {
	m := &matcher{ep: ep, projectID: projectID, asked: asked, left: map[string]bool{}}
	for _, e := range asked {
		m.left[strings.ToLower(strings.TrimSpace(e))] = true
	}
	return m
}

func (m *matcher) malformed(format string, args ...any) error {
	return &Error{Kind: KindMalformed, Endpoint: m.ep.String(), Status: 200,
		Message: "the answer proves nothing: " + fmt.Sprintf(format, args...)}
}

func (m *matcher) answer(status, projectID string) error {
	if status != "COMPLETED" {
		return m.malformed("its status is %q, not COMPLETED", status)
	}
	if projectID != m.projectID {
		return m.malformed("it names project %q, not %s", projectID, m.projectID)
	}
	return nil
}

func (m *matcher) named(email, list string) error {
	k := strings.ToLower(strings.TrimSpace(email))
	left, asked := m.left[k]
	switch {
	case !asked:
		return m.malformed("it names %q in %s, a user not asked about", email, list)
	case !left:
		return m.malformed("it names %q twice", email)
	}
	m.left[k] = false
	return nil
}

func (m *matcher) missing() []string {
	var out []string
	for _, e := range m.asked {
		if m.left[strings.ToLower(strings.TrimSpace(e))] {
			out = append(out, e)
		}
	}
	return out
}

// DirectShare is one person's direct share of a project, from the
// listing's sharing.user_shares: what DELETE can remove. Levels are the
// users endpoint's (VIEW is READ, EDIT is MANAGE).
type DirectShare struct {
	Email       string `json:"email"`
	UserID      string `json:"user_id"`
	AccessLevel string `json:"access_level"`
}

// Direct reads the project's direct shares. A permission level the
// interface does not name, a share without an e-mail or a person shared
// twice is an error: what it would tell apart (direct from inherited, the
// level to put back) cannot be known from it.
func (s *Sharing) Direct() ([]DirectShare, error) {
	if s == nil || len(s.UserShares) == 0 || string(s.UserShares) == "null" {
		return nil, nil
	}
	var raw []struct {
		Email  string `json:"dest_user_email"`
		UserID string `json:"dest_user_id"`
		Level  string `json:"permission_level"`
	}
	if err := json.Unmarshal(s.UserShares, &raw); err != nil {
		return nil, fmt.Errorf("sharing.user_shares is not a list of shares: %w", err)
	}
	seen := map[string]bool{}
	out := make([]DirectShare, 0, len(raw))
	for _, r := range raw {
		k := strings.ToLower(strings.TrimSpace(r.Email))
		level, ok := map[string]string{"VIEW": AccessRead, "EDIT": AccessManage}[r.Level]
		switch {
		case k == "":
			return nil, fmt.Errorf("sharing.user_shares has a share without dest_user_email")
		case !ok:
			return nil, fmt.Errorf("sharing.user_shares gives %s the permission level %q, which the interface does not name (VIEW, EDIT)", r.Email, r.Level)
		case seen[k]:
			return nil, fmt.Errorf("sharing.user_shares names %s twice", r.Email)
		}
		seen[k] = true
		out = append(out, DirectShare{Email: strings.TrimSpace(r.Email), UserID: r.UserID, AccessLevel: level})
	}
	return out, nil
}
