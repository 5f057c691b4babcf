package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Item is a listing record beside the server's own bytes for it, so that
// `--json` can write what the server sent (unknown fields included) while
// the table uses the typed record.
type Item[T any] struct {
	Value T
	JSON  json.RawMessage
}

// decodeItems decodes each raw element of a page.
func decodeItems[T any](ep endpoint, key string, raws []json.RawMessage) ([]Item[T], error) {
	items := make([]Item[T], len(raws))
	for i, raw := range raws {
		if err := unmarshalItem(raw, &items[i].Value); err != nil {
			return nil, &Error{Kind: KindMalformed, Endpoint: ep.String(), Status: 200,
				Message: fmt.Sprintf("%s item %d: %s", key, i+1, truncate(clean(err.Error()), 200))}
		}
		items[i].JSON = raw
	}
	return items, nil
}

// EachAuditPage pages through the audit log: the earliest entry (of
// logType, when given) as a page of one, then the entries after it, 1000 a
// page, until a page is short. The listing has no type filter, so logType
// is applied here. An empty log hands out nothing.
func (c *Client) EachAuditPage(ctx context.Context, logType string, fn func([]Item[AuditEntry]) error) error {
	v := url.Values{}
	if logType != "" {
		v.Set("log_type", logType)
	}
	var first struct {
		Log json.RawMessage `json:"log"`
	}
	if err := c.getJSON(ctx, epAuditEarliest, "/api/v1/logs/audit/earliest", v, &first); err != nil {
		if errors.Is(err, KindNotFound) {
			return nil
		}
		return err
	}
	if len(first.Log) == 0 || string(first.Log) == "null" {
		return nil
	}
	items, err := decodeItems[AuditEntry](epAuditEarliest, "log", []json.RawMessage{first.Log})
	if err != nil {
		return err
	}
	if err := fn(items); err != nil {
		return err
	}
	from := items[0].Value.ID
	for {
		if err := requireID(epAuditList, "starting audit entry ID", from); err != nil {
			return err
		}
		var raws []json.RawMessage
		v := url.Values{"from": {from}, "take": {strconv.Itoa(MaxAuditTake)}}
		if err := c.getJSON(ctx, epAuditList, "/api/v1/logs/audit", v, &raws); err != nil {
			return err
		}
		page, err := decodeItems[AuditEntry](epAuditList, "audit", raws)
		if err != nil {
			return err
		}
		kept := page[:0:0]
		for _, e := range page {
			if logType == "" || strings.EqualFold(string(e.Value.Type), logType) {
				kept = append(kept, e)
			}
		}
		if len(kept) > 0 {
			if err := fn(kept); err != nil {
				return err
			}
		}
		if len(page) < MaxAuditTake || page[len(page)-1].Value.ID == from {
			return nil
		}
		from = page[len(page)-1].Value.ID
	}
}

// ProjectUserItems lists users with access to a project, each beside the
// server's own JSON for it (GET /api/v1/vault/projects/{project_id}/users).
func (c *Client) ProjectUserItems(ctx context.Context, projectID string) ([]Item[ProjectUser], error) {
	if err := requireID(epProjectUsers, "project ID", projectID); err != nil {
		return nil, err
	}
	var u struct {
		Data struct {
			Users []json.RawMessage `json:"users"`
		} `json:"data"`
	}
	path := "/api/v1/vault/projects/" + url.PathEscape(projectID) + "/users"
	if err := c.getJSON(ctx, epProjectUsers, path, nil, &u); err != nil {
		return nil, err
	}
	return decodeItems[ProjectUser](epProjectUsers, "users", u.Data.Users)
}
