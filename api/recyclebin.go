package api

import (
	"context"
	"fmt"
	"net/url"
)

// RecycleBinQuery filters the recycle bin. The spec does not name the two
// parameters; these are the names of the sibling endpoints (facts §4.2).
type RecycleBinQuery struct {
	Name           string // case-insensitive substring of the project name
	ClientMatterID string // client matter UUID (not the matter number)
}

// RecycleBin lists deleted projects awaiting purge
// (GET /api/v1/vault/workspace/recycle_bin), newest deletion first (the
// spec's order, kept as received), in one body walked as it arrives: Raw
// and Each hold one entry at a time however large the bin. Summary.Total
// is the service's count (it may follow the items in the body).
func (c *Client) RecycleBin(q RecycleBinQuery) Listing[RecycleBinEntry] {
	return Listing[RecycleBinEntry]{c: c, ep: epRecycleBin, whole: true, again: true, held: Held{lim: c.held},
		read: func(ctx context.Context, item func(RawItem) error, _ func() error) (Summary, error) {
			return c.recycleBinRaw(ctx, q, item)
		},
		compactor: func() func(*RecycleBinEntry) { // compact_bin.go
			var in interner
			return func(e *RecycleBinEntry) { compactRecycleBinEntry(e, &in) }
		}}
}

// listedEntry is the part of an entry that the table and CSV show and the
// purge window reads: decoding only it skips the other strings and times.
type listedEntry struct {
	ResourceID string `json:"resource_id"`
	DeletedAt  Time   `json:"deleted_at"`
	PurgeAt    Time   `json:"recycle_bin_purged_scheduled_at"`
	DeletedBy  string `json:"deleted_by_user_email"`
	Project    struct {
		ID         string `json:"id"`
		Name       string `json:"name"`
		FilesCount Int    `json:"files_count"`
		KB         bool   `json:"is_knowledge_base_project"`
	} `json:"vault_project"`
}

// DecodeListed decodes, of a raw recycle-bin entry, the fields a listing
// shows (resource, project ID, name, file count and knowledge-base flag,
// deletion and purge times, who deleted it: the table and the CSV record,
// ui/csvsafe/records) into e; the others are left empty.
func DecodeListed(raw []byte, e *RecycleBinEntry) error {
	var l listedEntry
	if err := unmarshalItem(raw, &l); err != nil {
		return err
	}
	*e = RecycleBinEntry{ResourceID: l.ResourceID, DeletedAt: l.DeletedAt, RecycleBinPurgedScheduledAt: l.PurgeAt,
		DeletedByUserEmail: l.DeletedBy, VaultProject: RecycledProject{ID: l.Project.ID, Name: l.Project.Name, FilesCount: l.Project.FilesCount, IsKnowledgeBaseProject: l.Project.KB}}
	return nil
}

func (c *Client) recycleBinRaw(ctx context.Context, q RecycleBinQuery, item func(it RawItem) error) (Summary, error) {
	v := url.Values{}
	if q.Name != "" {
		v.Set("name", q.Name)
	}
	if q.ClientMatterID != "" {
		v.Set("client_matter_id", q.ClientMatterID)
	}
	var s Summary
	err := c.streamItems(ctx, epRecycleBin, "/api/v1/vault/workspace/recycle_bin", v, "items", item,
		func(key string, raw []byte) error {
			if key == "total" {
				s.HasTotal = true
				err := s.Total.UnmarshalJSON(raw)
				if !s.Total.Valid() {
					s.TotalText = string(raw)
				}
				return err
			}
			return nil
		})
	return s, err
}

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

// BinRepeats notices a deletion the bin lists more than once (one
// project's resource and deleted_at; an entry's own ID is not decoded for
// a listing), so that a count counts it once and names it.
type BinRepeats struct {
	seen  map[string]int
	order []string
	names map[string]string
}

// First reports whether e is the first listing of its deletion, and
// counts it.
func (r *BinRepeats) First(e *RecycleBinEntry) bool {
	if r.seen == nil {
		r.seen, r.names = map[string]int{}, map[string]string{}
	}
	k := e.ResourceID + "|" + e.DeletedAt.Raw
	r.seen[k]++
	if r.seen[k] == 2 {
		r.order = append(r.order, k)
		r.names[k] = fmt.Sprintf("%q (%s)", e.VaultProject.Name, e.ResourceID)
	}
	return r.seen[k] == 1
}

// Said is a line for each deletion listed more than once.
func (r *BinRepeats) Said() []string {
	out := make([]string, 0, len(r.order))
	for _, k := range r.order {
		out = append(out, fmt.Sprintf("the recycle bin lists the deletion of %s %d times: counted and shown once", r.names[k], r.seen[k]))
	}
	return out
}
