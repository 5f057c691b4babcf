package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestResolveBaseURL(t *testing.T) {
	ok := map[[2]string]string{
		{"", ""}:                           "https://api.harvey.ai",
		{"us", ""}:                         "https://api.harvey.ai",
		{"EU", ""}:                         "https://eu.api.harvey.ai",
		{"au", ""}:                         "https://au.api.harvey.ai",
		{"eu", "https://proxy.example/"}:   "https://proxy.example",
		{"", "http://127.0.0.1:8080"}:      "http://127.0.0.1:8080",
		{"", "http://127.9.9.9:1/"}:        "http://127.9.9.9:1",
		{"", "http://localhost:9"}:         "http://localhost:9",
		{"", "http://[::1]:9"}:             "http://[::1]:9",
		{"", "HTTPS://Api.Example.com/x/"}: "https://Api.Example.com/x",
	}
	for in, want := range ok {
		got, err := ResolveBaseURL(in[0], in[1])
		if err != nil || got != want {
			t.Errorf("ResolveBaseURL(%q,%q) = %q, %v; want %q", in[0], in[1], got, err, want)
		}
	}
	bad := [][2]string{{"mars", ""}, {"", "http://api.example.com"}, {"", "http://10.0.0.1"},
		{"", "ftp://x"}, {"", "https://user:pw@x"}, {"", "api.example.com"}, {"", "http://localhost.evil.com"}}
	for _, in := range bad {
		if _, err := ResolveBaseURL(in[0], in[1]); err == nil {
			t.Errorf("ResolveBaseURL(%q,%q) accepted", in[0], in[1])
		}
	}
	if _, err := New(Config{BaseURL: "http://example.com"}); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("New over plain http to a remote host: %v", err)
	}
}

// routes serves fixed bodies per "METHOD path" and records queries.
type routes struct {
	bodies  map[string]string
	queries map[string][]string
}

func (rt *routes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+secretToken {
		w.WriteHeader(401)
		io.WriteString(w, `{"error":"Unauthorized"}`)
		return
	}
	key := r.Method + " " + r.URL.Path
	if rt.queries == nil {
		rt.queries = map[string][]string{}
	}
	rt.queries[key] = append(rt.queries[key], r.URL.RawQuery)
	body, ok := rt.bodies[key]
	if !ok {
		w.WriteHeader(404)
		io.WriteString(w, `{"error":"Not found"}`)
		return
	}
	w.WriteHeader(200)
	io.WriteString(w, body)
}

func TestEndpointsDecode(t *testing.T) {
	rt := &routes{bodies: map[string]string{
		"GET /api/whoami": `{"user_id":"u1","email":"a@b.c","name":"A","workspace_id":"w","workspace_name":"W","token_name":"admin","permissions":["Vault API"]}`,
		"GET /api/v1/vault/workspace/projects": `{"response":{"content":{"pagination":{"page":1,"per_page":"20","total":1,"total_pages":1},
			"projects":[{"id":"p1","name":"Alpha","created_at":"2024-01-15T10:30:00.000000","updated_at":"2024-01-15T10:30:00Z","project_updated_at":"2024-01-15T10:30:00",
			"creator_email":"x@y","files_count":"3","query_count":2,"size_bytes":12345,"is_knowledge_base_project":false,
			"sharing":{"user_count":1,"workspace_count":0,"user_shares":[],"workspace_shares":[]}}]}}}`,
		"GET /api/v1/vault/projects/p1/files": `{"response":{"content":{"files":[{"id":"f1","name":"a.pdf","content_type":"application/pdf","processing_status":"READY_TO_QUERY","size":10,"uploaded_at":1700000000},
			{"id":"f2","name":"b.pdf","content_type":"application/pdf","processing_status":"QUANTUM_STATE","size":"11","uploaded_at":"2024-01-15 10:30:00"}],
			"pagination":{"page_size":20,"has_more":false,"next_cursor":null,"total_count":2}}}}`,
		"GET /api/v1/vault/projects/p1/users": `{"status":"COMPLETED","data":{"project_id":"p1","users":[{"user_id":"u","email":"e","name":"N","access_level":"OWNER_PLUS"}]}}`,
		"GET /api/v1/vault/workspace/recycle_bin": `{"items":[{"id":"r1","resource_id":"p9","resource_type":"vault_project","recycle_bin_status":"deleted",
			"deleted_at":"2025-01-02T03:04:05.123456Z","recycle_bin_purged_scheduled_at":"2025-02-01T03:04:05Z","delete_source":"customer_delete",
			"deleted_source_id":"s","deleted_by_user_email":"d@e","vault_project":{"id":"p9","name":"Old","created_at":"2024-01-01T00:00:00.000001","creator_email":"c","files_count":2,"is_knowledge_base_project":true}}],"total":1}`,
		"GET /api/v1/vault/get_files":            `{"response":{"content":[{"file_id":"a","file_name":"a.pdf","processing_status":"ready_to_query","content_type":"application/pdf","deleted_at":null},{"file_id":"b","error":"not_found"}]}}`,
		"GET /api/v1/logs/audit/earliest":        `{"log":{"id":"l1","timestamp":"2025-01-23T18:07:59.234949","type":{"description":"d","example":"auth:login"},"user":"u","ip":"1.2.3.4","user_agent":"ua","data":{"site":"us"}}}`,
		"GET /api/v1/logs/audit":                 `[{"id":"l2","timestamp":"2025-01-23T18:08:00","type":"user:new_kind","user":"u","ip":"i","user_agent":"a"}]`,
		"DELETE /api/v1/vault/delete_project/p1": `{"message":"Project deletion is in progress"}`,
		"DELETE /api/v2/matters":                 `{"deleted":[{"client_id":"c","matter_id":"m"}],"already_absent":[],"errors":[{"client_id":" ","matter_id":"m","error":"invalid_client_id","detail":"empty"}]}`,
		"POST /api/v2/matters":                   `{"created":[{"client_id":"c","matter_id":"m"}],"restored":[],"unchanged":[]}`,
	}}
	h := newHarness(t, rt)
	ctx := context.Background()
	c := h.c

	w, err := c.WhoAmI(ctx)
	if err != nil || w.TokenName != "admin" || w.Permissions[0] != "Vault API" {
		t.Fatalf("WhoAmI: %+v %v", w, err)
	}
	pp, err := c.ProjectsPage(ctx, ProjectQuery{Page: 2, PerPage: 500, Name: "al"})
	if err != nil || len(pp.Projects) != 1 || pp.Projects[0].FilesCount != 3 || pp.Pagination.PerPage != 20 {
		t.Fatalf("Projects: %+v %v", pp, err)
	}
	if got := rt.queries["GET /api/v1/vault/workspace/projects"][0]; got != "name=al&page=2&per_page=100" {
		t.Errorf("projects query %q", got)
	}
	if ts := pp.Projects[0].CreatedAt; ts.Year() != 2024 || ts.Raw != "2024-01-15T10:30:00.000000" {
		t.Errorf("created_at %+v", ts)
	}
	fp, err := c.ProjectFilesPage(ctx, "p1", FileQuery{Limit: 5, Statuses: []string{"ready_to_query", "processing"}})
	if err != nil || len(fp.Files) != 2 {
		t.Fatalf("ProjectFiles: %+v %v", fp, err)
	}
	if f := fp.Files[0]; !f.ProcessingStatus.Is("ready_to_query") || f.UploadedAt.Unix() != 1700000000 {
		t.Errorf("file 0: %+v", f)
	}
	if f := fp.Files[1]; f.ProcessingStatus != "QUANTUM_STATE" || f.Size != 11 || f.UploadedAt.Hour() != 10 {
		t.Errorf("unknown enum / string number / zone-less: %+v", f)
	}
	if got := rt.queries["GET /api/v1/vault/projects/p1/files"][0]; got != "limit=5&processing_status=READY_TO_QUERY&processing_status=PROCESSING" {
		t.Errorf("files query %q", got)
	}
	u, err := usersOf(c.ProjectUsers("p1").Collect(ctx))
	if err != nil || u.Data.Users[0].AccessLevel != "OWNER_PLUS" {
		t.Fatalf("ProjectUsers: %+v %v", u, err)
	}
	rb, err := binOf(c.RecycleBin(RecycleBinQuery{Name: "o", ClientMatterID: "cm"}).Collect(ctx))
	if err != nil || rb.Total != 1 || !rb.Items[0].VaultProject.IsKnowledgeBaseProject || rb.Items[0].DeletedAt.Nanosecond() != 123456000 {
		t.Fatalf("RecycleBin: %+v %v", rb, err)
	}
	if got := rt.queries["GET /api/v1/vault/workspace/recycle_bin"][0]; got != "client_matter_id=cm&name=o" {
		t.Errorf("recycle query %q", got)
	}
	fd, err := detailsOf(c.GetFiles(ctx, []string{"b", " a ", "", "zz", "a"}))
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, f := range fd {
		ids = append(ids, f.FileID+"/"+f.Error)
	}
	if strings.Join(ids, ",") != "b/not_found,a/,zz/not_returned,a/" {
		t.Errorf("GetFiles order: %v", ids)
	}
	e, err := c.AuditEarliest(ctx, "auth:login")
	if err != nil || e.Value.Type != "auth:login" || string(e.Value.Data) != `{"site":"us"}` {
		t.Fatalf("AuditEarliest: %+v %v", e, err)
	}
	list, err := c.AuditPage(ctx, "l1", 5000, "")
	if err != nil || len(list.Entries) != 1 || list.Entries[0].Value.Type != "user:new_kind" {
		t.Fatalf("AuditPage: %+v %v", list, err)
	}
	if got := rt.queries["GET /api/v1/logs/audit"][0]; got != "from=l1&take=1000" {
		t.Errorf("audit query %q", got)
	}
	dp, err := c.DeleteProject(ctx, "p1")
	if err != nil || dp.Outcome() != DeleteAccepted {
		t.Fatalf("DeleteProject: %+v %v", dp, err)
	}
	md, err := c.DeleteMatters(ctx, []MatterPair{{"c", "m"}, {" ", "m"}})
	if err != nil || len(md.Deleted) != 1 || md.Errors[0].Error != "invalid_client_id" {
		t.Fatalf("DeleteMatters: %+v %v", md, err)
	}
	mu, err := c.UpsertMatters(ctx, []MatterPair{{"c", "m"}})
	if err != nil || len(mu.Created) != 1 {
		t.Fatalf("UpsertMatters: %+v %v", mu, err)
	}
}

func TestDeleteProjectOutcomes(t *testing.T) {
	cases := []struct {
		status int
		body   string
		want   DeleteOutcome
		kind   ErrorKind
	}{
		{403, `{"error":"Example projects cannot be deleted"}`, DeleteRefused, 0},
		{409, `{"error":"Project deletion partially failed due to processing conflicts","details":{"failed_folders":2,"failed_files":"7"}}`, DeletePartial, 0},
		{403, `{"error":"This token lacks the \"Modify workspace projects\" permission"}`, 0, KindForbidden},
		{404, `{"error":"Project not found"}`, 0, KindNotFound},
	}
	for _, tc := range cases {
		h := newHarness(t, jsonHandler(tc.status, tc.body))
		r, err := h.c.DeleteProject(context.Background(), "p")
		if tc.kind != 0 {
			if kindOf(err) != tc.kind {
				t.Errorf("%d %s: got %v", tc.status, tc.body, err)
			}
			continue
		}
		if err != nil || r.Outcome() != tc.want {
			t.Errorf("%d: %+v %v", tc.status, r, err)
		}
		if tc.want == DeletePartial && r.Details.FailedFiles != 7 {
			t.Errorf("details %+v", r.Details)
		}
	}
}

func TestAny2xxAccepted(t *testing.T) {
	for _, st := range []int{200, 201, 202} {
		h := newHarness(t, jsonHandler(st, `{"project_id":"p","file_ids":["x"]}`))
		r, err := h.c.Upload(context.Background(), "p", []UploadFile{memFile("a.txt", "hello")}, DuplicateSkip)
		if err != nil || r.FileIDs[0] != "x" {
			t.Errorf("status %d: %+v %v", st, r, err)
		}
	}
}

func TestAuditEarliestEmpty(t *testing.T) {
	h := newHarness(t, jsonHandler(404, `{"error":"No audit logs found"}`))
	if it, err := h.c.AuditEarliest(context.Background(), ""); it != nil || err != nil {
		t.Fatalf("got %v %v, want no entry and no error", it, err)
	}
	n := 0
	_, err := h.c.Audit(AuditQuery{}).Each(context.Background(), func(*AuditEntry, RawItem) error { n++; return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("empty log yielded %d", n)
	}
}

func TestTimeLenient(t *testing.T) {
	for _, in := range []string{`"2024-01-15T10:30:00.000000"`, `"2024-01-15T10:30:00Z"`, `"2024-01-15T10:30:00"`,
		`"2024-01-15T12:30:00+02:00"`, `1705314600`, `"1705314600"`, `"Mon, 15 Jan 2024 10:30:00 GMT"`, `1705314600.0`} {
		var tm Time
		if err := json.Unmarshal([]byte(in), &tm); err != nil || tm.UTC().Format(time.RFC3339) != "2024-01-15T10:30:00Z" {
			t.Errorf("%s -> %v %v", in, tm.Time, err)
		}
	}
	var tm Time
	if err := json.Unmarshal([]byte(`"next tuesday"`), &tm); err != nil || tm.Raw != "next tuesday" || !tm.IsZero() {
		t.Errorf("unknown format: %+v %v", tm, err)
	}
	out, _ := json.Marshal(tm)
	if string(out) != `"next tuesday"` {
		t.Errorf("raw kept: %s", out)
	}
}

func memFile(name, content string) UploadFile {
	return UploadFile{Name: name, Size: int64(len(content)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(content)), nil
	}}
}
