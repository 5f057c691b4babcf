package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// FileDeletion is what delete_file answered of one file.
type FileDeletion int

// The three answers of delete_file the facts document (§4.7).
const (
	FileDeleted FileDeletion = iota // 2xx: the service deleted it and logged it
	FileBusy                        // 409: pending jobs on the file; try again later
	FileGone                        // 404: not there (never was, or already deleted)
)

// DeleteFileResult is one file's answer; Message is the service's text
// (redacted) for a 409 or 404.
type DeleteFileResult struct {
	Outcome FileDeletion
	Message string
}

// DeleteFile deletes one file from its project
// (DELETE /api/v1/vault/delete_file/{file_id}). A 409 and a 404 are
// results, not errors. It is never repeated automatically.
func (c *Client) DeleteFile(ctx context.Context, fileID string) (*DeleteFileResult, error) {
	ep := epDeleteFile
	if err := requireID(ep, "file ID", fileID); err != nil {
		return nil, err
	}
	resp, red, err := c.send(ctx, call{ep: ep, path: "/api/v1/vault/delete_file/" + url.PathEscape(fileID),
		keep: []int{http.StatusNotFound, http.StatusConflict}})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusConflict:
		return &DeleteFileResult{Outcome: FileBusy, Message: serverMessage(readErrorBody(resp), red)}, nil
	case http.StatusNotFound:
		return &DeleteFileResult{Outcome: FileGone, Message: serverMessage(readErrorBody(resp), red)}, nil
	}
	// the body's shape is not documented: any 2xx is the deletion
	readErrorBody(resp)
	return &DeleteFileResult{Outcome: FileDeleted}, nil
}

// ProjectMetadata is get_metadata's answer (§4.6): the project's files and
// its limits. The size comes as a string or a number.
type ProjectMetadata struct {
	ProjectID      string   `json:"project_id"`
	FileIDs        []string `json:"file_ids"`
	FileNames      []string `json:"file_names,omitempty"`
	FileCount      Int      `json:"file_count"`
	MaxFileCount   Int      `json:"max_file_count"`
	ProjectSize    Int      `json:"project_size"`
	MaxProjectSize Int      `json:"max_project_size"`
}

// GetMetadata reads a project's metadata
// (GET /api/v1/vault/get_metadata/{project_id}). The success is declared as
// 201 (any 2xx is taken); content is a list (the current shape: the
// element of this project, else the first) or an object (the older one).
func (c *Client) GetMetadata(ctx context.Context, projectID string) (*ProjectMetadata, error) {
	ep := epGetMetadata
	if err := requireID(ep, "project ID", projectID); err != nil {
		return nil, err
	}
	content, red, err := c.contentBytes(ctx, ep, "/api/v1/vault/get_metadata/"+url.PathEscape(projectID), nil)
	if err != nil {
		return nil, err
	}
	var m ProjectMetadata
	if t := bytes.TrimSpace(content); len(t) > 0 && t[0] == '[' {
		var list []ProjectMetadata
		if err := json.Unmarshal(t, &list); err != nil {
			return nil, malformed(ep, 0, red, "get_metadata's content is not a list of projects: "+err.Error(), t)
		}
		if len(list) == 0 {
			return nil, malformed(ep, 0, red, "get_metadata's content is an empty list", nil)
		}
		m = list[0]
		for _, x := range list {
			if x.ProjectID == projectID {
				m = x
			}
		}
	} else if err := json.Unmarshal(t, &m); err != nil {
		return nil, malformed(ep, 0, red, "get_metadata's content is not a project's metadata: "+err.Error(), t)
	}
	return &m, nil
}
