// Package deletefile is the write-job kind that deletes files
// (DELETE /api/v1/vault/delete_file/{file_id}, facts §4.7): one file a
// request. A 409 (the file's pending jobs) is retried later within the
// core's bound, then named; a 404 is a file already gone. The uploads'
// undo and the console's Files tab both plan with it.
package deletefile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
)

// Name is the kind's name in the store.
const Name = "delete_file"

// AuditType is the audit type the simulator writes for a file's deletion.
// The service's own name for it is not documented (facts §4.7 says only
// that it "logs an audit event"); the evidence looks for this one.
const AuditType = "api:vault_delete_file"

// Outcomes of an item.
const (
	Deleted = "deleted" // this job's request deleted it
	Gone    = "gone"    // already not there (404, or get_files says so)
	Busy    = "busy"    // still 409 after the bound
)

// InDoubt is the detail of a file found gone after a request whose answer
// was never recorded.
const InDoubt = "gone when checked after the request, whose answer was lost: deleted by it or before it"

// Service is the part of *api.Client the kind uses.
type Service interface {
	DeleteFile(ctx context.Context, fileID string) (*api.DeleteFileResult, error)
	GetFiles(ctx context.Context, ids []string) ([]api.Item[api.FileDetail], error)
}

// Kind deletes files; its zero value is not usable, make it with New.
type Kind struct{ svc Service }

// New is the kind over svc.
func New(svc Service) *Kind { return &Kind{svc: svc} }

// File is one file to delete, as a plan names it.
type File struct {
	ID, Name, ProjectID string
	Path                string // the local path it came from, when an upload's
	Size                int64
}

// Params are an item's parameters: what a receipt names the file by.
type Params struct {
	ProjectID string `json:"project_id"`
	Path      string `json:"path,omitempty"`
	Size      int64  `json:"size,omitempty"`
}

// Items makes one item a send of each file, in order.
func Items(files []File) []writejob.Item {
	out := make([]writejob.Item, len(files))
	for i, f := range files {
		p, _ := json.Marshal(Params{ProjectID: f.ProjectID, Path: f.Path, Size: f.Size})
		out[i] = writejob.Item{Send: i + 1, Target: f.ID, Label: f.Name, Action: "delete", Params: string(p)}
	}
	return out
}

// ParamsOf reads an item's parameters (zero when they cannot be read).
func ParamsOf(it writejob.Item) Params {
	var p Params
	_ = json.Unmarshal([]byte(it.Params), &p)
	return p
}

func (k *Kind) Name() string      { return Name }
func (k *Kind) AuditType() string { return AuditType }

// Send deletes the send's one file.
func (k *Kind) Send(ctx context.Context, items []writejob.Item) ([]writejob.Answer, error) {
	if len(items) != 1 {
		return nil, fmt.Errorf("delete_file carries one file a request, not %d", len(items))
	}
	it := items[0]
	r, err := k.svc.DeleteFile(ctx, it.Target)
	if err != nil {
		return nil, err
	}
	a := writejob.Answer{Target: it.Target, Previous: "live"}
	switch r.Outcome {
	case api.FileDeleted:
		a.State, a.Outcome = writejob.Done, Deleted
	case api.FileGone:
		a.State, a.Outcome, a.Detail = writejob.Done, Gone, "already gone: the service answered 404"
		a.Previous = ""
	case api.FileBusy:
		a.State, a.Outcome, a.RetryLater = writejob.Failed, Busy, true
		a.Detail = "the service answered 409: the file is still being processed"
		if r.Message != "" {
			a.Detail += " (" + r.Message + ")"
		}
	default:
		return nil, errors.New("delete_file: an answer the kind does not know")
	}
	return []writejob.Answer{a}, nil
}

// Check asks get_files what became of files whose answer was never
// recorded: not found or deleted_at set is gone (the request, or someone,
// deleted it); live is not deleted, sent again.
func (k *Kind) Check(ctx context.Context, items []writejob.Item) ([]writejob.Answer, error) {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.Target
	}
	got, err := k.svc.GetFiles(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]writejob.Answer, 0, len(got))
	for _, g := range got {
		d := g.Value
		a := writejob.Answer{Target: d.FileID, Previous: "live"}
		switch {
		// gone, but by this request or before it cannot be told: the
		// receipt says so rather than claim the deletion
		case d.Failed():
			a.State, a.Outcome, a.Detail = writejob.Done, Gone, InDoubt+" (get_files: "+d.Error+")"
		case d.Superseded():
			a.State, a.Outcome, a.Detail = writejob.Done, Gone, InDoubt+" (get_files: deleted_at set)"
		default:
			a.State = writejob.Planned
		}
		out = append(out, a)
	}
	return out, nil
}

// Undo refuses: the interface has no call that puts a deleted file back.
func (k *Kind) Undo(context.Context, store.WriteJob, []writejob.Item) (*writejob.UndoPlan, error) {
	return nil, errors.New("a deleted file cannot be put back through the service's interface: upload it again (the receipt names each file's path)")
}
