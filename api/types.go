package api

import (
	"encoding/json"
	"strings"
)

// Records use the spec's JSON names exactly, so `--json` output is the API's own
// objects. Enum-like fields are plain strings: production may send values the
// spec never listed, and those must be shown verbatim, never rejected.

// RecycleBinEntry is one deleted project awaiting permanent purge.
type RecycleBinEntry struct {
	ID                          string          `json:"id"`
	ResourceID                  string          `json:"resource_id"`
	ResourceType                string          `json:"resource_type"`
	RecycleBinStatus            string          `json:"recycle_bin_status"`
	DeletedAt                   Time            `json:"deleted_at"`
	RecycleBinPurgedScheduledAt Time            `json:"recycle_bin_purged_scheduled_at"`
	DeleteSource                string          `json:"delete_source"`
	DeletedSourceID             string          `json:"deleted_source_id"`
	DeletedByUserEmail          string          `json:"deleted_by_user_email"`
	VaultProject                RecycledProject `json:"vault_project"`
}

// RecycledProject is the vault_project object inside a recycle-bin entry.
type RecycledProject struct {
	ID                     string `json:"id"`
	Name                   string `json:"name"`
	CreatedAt              Time   `json:"created_at"`
	CreatorEmail           string `json:"creator_email"`
	FilesCount             Int    `json:"files_count"`
	IsKnowledgeBaseProject bool   `json:"is_knowledge_base_project"`
}

// RecycleBin is the recycle-bin listing response, as a cache keeps it and
// the Share holds it.
type RecycleBin struct {
	Items    []RecycleBinEntry `json:"items"`
	Total    Int               `json:"total"`
	hasTotal bool              // the body said "total" (Summary.HasTotal)
}

// FileDetail is one element of get_files: either details or, when Error is
// set (observed: "not_found"), a failure for that ID.
type FileDetail struct {
	FileID           string `json:"file_id"`
	FileName         string `json:"file_name,omitempty"`
	ProcessingStatus Status `json:"processing_status,omitempty"`
	ContentType      string `json:"content_type,omitempty"`
	DeletedAt        *Time  `json:"deleted_at,omitempty"`
	Error            string `json:"error,omitempty"`
}

// Failed reports whether the record is a per-ID failure rather than details.
func (f FileDetail) Failed() bool { return f.Error != "" }

// Status is a processing status. The service sends it lowercase in get_files
// and uppercase in project file listings, so comparisons ignore case.
type Status string

// Known processing statuses (canonical upper case, as in project listings).
const (
	StatusUploaded             Status = "UPLOADED"
	StatusProcessing           Status = "PROCESSING"
	StatusReadyToQuery         Status = "READY_TO_QUERY"
	StatusReadyToReview        Status = "READY_TO_REVIEW"
	StatusRecoverableFailure   Status = "RECOVERABLE_FAILURE"
	StatusUnrecoverableFailure Status = "UNRECOVERABLE_FAILURE"
)

// Is compares two statuses case-insensitively.
func (s Status) Is(other Status) bool { return strings.EqualFold(string(s), string(other)) }

// Terminal reports whether a file in this status will not change on its own.
// Unknown values count as terminal: polling forever on a status we do not
// understand would burn the vault budget for nothing.
func (s Status) Terminal() bool {
	return !(s.Is(StatusUploaded) || s.Is(StatusProcessing) || s.Is(StatusRecoverableFailure))
}

// UploadResult is the upload_files response.
type UploadResult struct {
	ProjectID string   `json:"project_id"`
	FileIDs   []string `json:"file_ids"`
}

// ProjectUser is a workspace user with active access to a project.
type ProjectUser struct {
	UserID      string `json:"user_id"`
	Email       string `json:"email"`
	Name        string `json:"name"`
	AccessLevel string `json:"access_level"`
}

// ProjectUsers is the project users response.
type ProjectUsers struct {
	Status string `json:"status"`
	Data   struct {
		ProjectID string        `json:"project_id"`
		Users     []ProjectUser `json:"users"`
	} `json:"data"`
}

// AuditEntry is one audit log record. Data is type-specific and kept raw.
type AuditEntry struct {
	ID        string    `json:"id"`
	Timestamp Time      `json:"timestamp"`
	Type      AuditType `json:"type"`
	User      string    `json:"user"`
	IP        string    `json:"ip"`
	UserAgent string    `json:"user_agent"`
	Data      RawJSON   `json:"data,omitempty"`
}

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

// MatterPair identifies a matter by the firm's own identifiers.
type MatterPair struct {
	ClientID string `json:"client_id"`
	MatterID string `json:"matter_id"`
}

// MatterError is a per-pair failure; it echoes the raw, untrimmed values.
type MatterError struct {
	ClientID string `json:"client_id"`
	MatterID string `json:"matter_id"`
	Error    string `json:"error"`
	Detail   string `json:"detail"`
}

// MatterDeletion is the 200 response of DELETE /api/v2/matters.
type MatterDeletion struct {
	Deleted       []MatterPair  `json:"deleted"`
	AlreadyAbsent []MatterPair  `json:"already_absent"`
	Errors        []MatterError `json:"errors"`
}

// MatterUpsert is the 200 response of POST /api/v2/matters. Like deletion,
// it answers 200 with per-pair failures in Errors.
type MatterUpsert struct {
	Created   []MatterPair  `json:"created"`
	Restored  []MatterPair  `json:"restored"`
	Unchanged []MatterPair  `json:"unchanged"`
	Errors    []MatterError `json:"errors"`
}

// ValidationError locates one problem of a rejected request. Loc entries are
// field names (string) or array indexes (float64 after JSON decoding).
type ValidationError struct {
	Loc  []any  `json:"loc"`
	Type string `json:"type"`
	Msg  string `json:"msg,omitempty"`
}

// Project is a vault project or knowledge base from the workspace listing.
type Project struct {
	ID                     string   `json:"id"`
	Name                   string   `json:"name"`
	CreatedAt              Time     `json:"created_at"`
	UpdatedAt              Time     `json:"updated_at"`
	ProjectUpdatedAt       Time     `json:"project_updated_at"`
	CreatorEmail           string   `json:"creator_email"`
	FilesCount             Int      `json:"files_count"`
	QueryCount             Int      `json:"query_count"`
	SizeBytes              Int      `json:"size_bytes"`
	IsKnowledgeBaseProject bool     `json:"is_knowledge_base_project"`
	Sharing                *Sharing `json:"sharing,omitempty"`
}

// Sharing summarises who a project is shared with. The share lists are kept
// raw: the console shows counts, and their shape has changed between versions.
type Sharing struct {
	UserCount       Int     `json:"user_count"`
	WorkspaceCount  Int     `json:"workspace_count"`
	UserShares      RawJSON `json:"user_shares,omitempty"`
	WorkspaceShares RawJSON `json:"workspace_shares,omitempty"`
}

// PagePagination is page/per_page pagination (workspace projects).
type PagePagination struct {
	Page       Int `json:"page"`
	PerPage    Int `json:"per_page"`
	Total      Int `json:"total"`
	TotalPages Int `json:"total_pages"`
}

// ProjectPage is one page of the workspace project listing (the content of
// the response.content envelope).
type ProjectPage struct {
	Pagination PagePagination `json:"pagination"`
	Projects   []Project      `json:"projects"`
}

// ProjectFile is one file of a project listing.
type ProjectFile struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	ContentType      string `json:"content_type"`
	ProcessingStatus Status `json:"processing_status"`
	Size             Int    `json:"size"`
	UploadedAt       Time   `json:"uploaded_at"`
}

// CursorPagination is opaque-cursor pagination (project files).
type CursorPagination struct {
	PageSize   Int     `json:"page_size"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
	TotalCount Int     `json:"total_count"`
}

// FilePage is one page of a project's files (the content of the envelope).
type FilePage struct {
	Files      []ProjectFile    `json:"files"`
	Pagination CursorPagination `json:"pagination"`
}

// WhoAmI describes the account behind a token. Production does not document
// the shape, so every field is optional.
type WhoAmI struct {
	UserID        string   `json:"user_id,omitempty"`
	Email         string   `json:"email,omitempty"`
	Name          string   `json:"name,omitempty"`
	WorkspaceID   string   `json:"workspace_id,omitempty"`
	WorkspaceName string   `json:"workspace_name,omitempty"`
	TokenName     string   `json:"token_name,omitempty"`
	Permissions   []string `json:"permissions,omitempty"`
	// Raw is the body as the server sent it (--json prints it).
	Raw json.RawMessage `json:"-"`
}
