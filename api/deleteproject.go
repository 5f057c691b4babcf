package api

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// DeleteProjectResult holds whichever of the three documented bodies the
// service returned for delete_project; Outcome says which one it was.
type DeleteProjectResult struct {
	Message string                `json:"message,omitempty"`
	Error   string                `json:"error,omitempty"`
	Details *DeleteProjectDetails `json:"details,omitempty"`
}

// DeleteProjectDetails counts what a partially failed deletion left behind.
type DeleteProjectDetails struct {
	FailedFolders Int `json:"failed_folders"`
	FailedFiles   Int `json:"failed_files"`
}

// DeleteOutcome classifies a delete_project response.
type DeleteOutcome int

// The three documented delete_project outcomes.
const (
	DeleteAccepted DeleteOutcome = iota
	DeleteRefused
	DeletePartial
)

// Outcome classifies the body: details mean partial failure, a bare error
// means refusal (example project), a message means accepted.
func (r DeleteProjectResult) Outcome() DeleteOutcome {
	switch {
	case r.Details != nil:
		return DeletePartial
	case r.Error != "":
		return DeleteRefused
	default:
		return DeleteAccepted
	}
}

// DeleteProject asks for a project's deletion
// (DELETE /api/v1/vault/delete_project/{project_id}). The refused (example
// project) and partial-failure bodies are results, not errors: check
// Outcome(). It is never repeated automatically.
func (c *Client) DeleteProject(ctx context.Context, projectID string) (*DeleteProjectResult, error) {
	ep := epDeleteProject
	if err := requireID(ep, "project ID", projectID); err != nil {
		return nil, err
	}
	resp, red, err := c.send(ctx, call{ep: ep, path: "/api/v1/vault/delete_project/" + url.PathEscape(projectID),
		keep: []int{http.StatusForbidden, http.StatusConflict}})
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 == 2 || resp.StatusCode == http.StatusConflict {
		var r DeleteProjectResult
		if err := c.decodeJSON(resp, ep, red, &r); err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusConflict && r.Details == nil {
			r.Details = &DeleteProjectDetails{} // a 409 is a partial failure even without counts
		}
		r.Error = red.String(r.Error)
		r.Message = red.String(r.Message)
		return &r, nil
	}
	// 403 is either the documented refusal of example projects or a missing
	// permission; only the body tells them apart.
	body := readErrorBody(resp)
	msg := serverMessage(body, red)
	if strings.Contains(strings.ToLower(msg), "example") {
		return &DeleteProjectResult{Error: red.String(msg)}, nil
	}
	e := c.statusError(ep, resp.StatusCode, body, red)
	c.refineForbidden(ctx, ep, e)
	return nil, e
}
