package sim_test

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

var (
	reZ     = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$`)
	reNaive = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$`)
)

type recycleItem struct {
	ID                          string `json:"id"`
	ResourceID                  string `json:"resource_id"`
	ResourceType                string `json:"resource_type"`
	RecycleBinStatus            string `json:"recycle_bin_status"`
	DeletedAt                   string `json:"deleted_at"`
	RecycleBinPurgedScheduledAt string `json:"recycle_bin_purged_scheduled_at"`
	DeleteSource                string `json:"delete_source"`
	DeletedSourceID             string `json:"deleted_source_id"`
	DeletedByUserEmail          string `json:"deleted_by_user_email"`
	VaultProject                struct {
		ID           string `json:"id"`
		Name         string `json:"name"`
		CreatedAt    string `json:"created_at"`
		CreatorEmail string `json:"creator_email"`
		FilesCount   *int   `json:"files_count"`
		IsKB         *bool  `json:"is_knowledge_base_project"`
	} `json:"vault_project"`
}

type recycleList struct {
	Items []recycleItem `json:"items"`
	Total int           `json:"total"`
}

func (h *harness) recycle(query string) recycleList {
	h.t.Helper()
	r := h.get("/api/v1/vault/workspace/recycle_bin" + query)
	mustStatus(h.t, r, 200)
	var l recycleList
	r.json(h.t, &l)
	return l
}

func TestRecycleBin(t *testing.T) {
	h := newHarness(t)
	all := h.recycle("")
	if all.Total != len(all.Items) || all.Total < 25 {
		t.Fatalf("total %d items %d", all.Total, len(all.Items))
	}
	var overdue, soon24h, soon7d int
	var oldest, newest time.Time
	for i, it := range all.Items {
		if !reZ.MatchString(it.DeletedAt) || !reZ.MatchString(it.RecycleBinPurgedScheduledAt) || !reNaive.MatchString(it.VaultProject.CreatedAt) {
			t.Fatalf("timestamp format: %+v", it)
		}
		if i > 0 && it.DeletedAt > all.Items[i-1].DeletedAt {
			t.Fatalf("not ordered by deleted_at desc at %d", i)
		}
		if it.ResourceType != "vault_project" || it.RecycleBinStatus != "deleted" || it.DeleteSource != "customer_delete" ||
			it.VaultProject.FilesCount == nil || it.VaultProject.IsKB == nil || it.VaultProject.ID != it.ResourceID {
			t.Fatalf("fields: %+v", it)
		}
		purge, _ := time.Parse("2006-01-02T15:04:05.000000Z", it.RecycleBinPurgedScheduledAt)
		deleted, _ := time.Parse("2006-01-02T15:04:05.000000Z", it.DeletedAt)
		if purge.Sub(deleted) != 30*24*time.Hour {
			t.Fatalf("purge is not 30 days after deletion: %+v", it)
		}
		if i == 0 {
			newest = deleted
		}
		oldest = deleted
		switch left := purge.Sub(pinned); {
		case left <= 0:
			// Past its purge time: the simulator has purged it.
			overdue++
		case left < 24*time.Hour:
			soon24h++
		case left < 7*24*time.Hour:
			soon7d++
		}
	}
	if overdue != 0 || soon24h < 2 || soon7d == 0 {
		t.Fatalf("seed lacks entries purging soon: %d overdue, %d within 24h, %d within 7d", overdue, soon24h, soon7d)
	}
	if oldest.Sub(newest) > -25*24*time.Hour || pinned.Sub(newest) > 2*24*time.Hour {
		t.Fatalf("deletions not spread across the 30 days: %v .. %v", oldest, newest)
	}

	// name: case-insensitive substring.
	word := strings.Fields(all.Items[0].VaultProject.Name)[0]
	byName := h.recycle("?name=" + url.QueryEscape(strings.ToUpper(word)))
	if byName.Total == 0 || byName.Total > all.Total {
		t.Fatalf("name filter %q: %d", word, byName.Total)
	}
	for _, it := range byName.Items {
		if !strings.Contains(strings.ToLower(it.VaultProject.Name), strings.ToLower(word)) {
			t.Fatalf("%q does not contain %q", it.VaultProject.Name, word)
		}
	}
	if h.recycle("?name=no-such-vault-xyz").Total != 0 {
		t.Fatal("name filter matched nothing expected")
	}

	// client_matter_id: delete a project associated with a matter and filter by it.
	mid := h.sim.Matters()[0].ServiceID
	pid, _ := h.sim.AddProject(sim.ProjectSpec{Name: "Filter Probe — Lease Renewal", ClientMatterID: mid})
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_project/"+pid, h.admin(), nil), 200)
	h.sim.Advance(time.Minute)
	byCM := h.recycle("?client_matter_id=" + strings.ToUpper(mid))
	found := false
	for _, it := range byCM.Items {
		found = found || it.ResourceID == pid
	}
	if !found || byCM.Total >= all.Total+1 {
		t.Fatalf("client_matter_id filter: %+v", byCM)
	}
	if got := h.recycle("?client_matter_id=" + mid + "&name=probe"); got.Total != 1 {
		t.Fatalf("combined filters: %d", got.Total)
	}
}

func TestDeleteProject(t *testing.T) {
	h := newHarness(t)
	ex := h.projectByName(sim.ExampleProjectName)
	r := h.do("DELETE", "/api/v1/vault/delete_project/"+ex.ID, h.admin(), nil)
	mustStatus(t, r, 403)
	if !strings.Contains(string(r.body), "Example projects cannot be deleted") {
		t.Fatal(string(r.body))
	}

	cf := h.projectByName(sim.ConflictsProjectName)
	r = h.do("DELETE", "/api/v1/vault/delete_project/"+cf.ID, h.admin(), nil)
	mustStatus(t, r, 409)
	var partial struct {
		Error   string `json:"error"`
		Details struct {
			FailedFolders *int `json:"failed_folders"`
			FailedFiles   *int `json:"failed_files"`
		} `json:"details"`
	}
	r.json(t, &partial)
	if !strings.Contains(partial.Error, "partially failed") || partial.Details.FailedFolders == nil || *partial.Details.FailedFiles == 0 {
		t.Fatalf("%s", r.body)
	}

	p := h.projectByName("Ironbridge Capital — Refinancing")
	before := h.recycle("").Total
	tok := h.sim.Token("no-matters")
	r = h.do("DELETE", "/api/v1/vault/delete_project/"+p.ID, tok, nil)
	mustStatus(t, r, 200)
	if string(r.body) != `{"message":"Project deletion is in progress"}`+"\n" {
		t.Fatal(string(r.body))
	}
	if !h.projectByName(p.Name).DeleteInProgress || h.recycle("").Total != before {
		t.Fatal("deletion should be asynchronous")
	}
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_project/"+p.ID, h.admin(), nil), 200) // still in progress
	h.sim.Advance(10 * time.Second)
	l := h.recycle("")
	if l.Total != before+1 || l.Items[0].ResourceID != p.ID {
		t.Fatalf("new entry should be first: %+v", l.Items[0])
	}
	e := l.Items[0]
	del, _ := time.Parse("2006-01-02T15:04:05.000000Z", e.DeletedAt)
	purge, _ := time.Parse("2006-01-02T15:04:05.000000Z", e.RecycleBinPurgedScheduledAt)
	if purge.Sub(del) != 30*24*time.Hour || del.After(h.sim.Now()) || del.Before(pinned) {
		t.Fatalf("timestamps %s %s", e.DeletedAt, e.RecycleBinPurgedScheduledAt)
	}
	if e.DeletedByUserEmail != "h.brennan@harrowgate-law.com" || e.RecycleBinStatus != "deleted" ||
		e.DeleteSource != "customer_delete" || e.VaultProject.Name != p.Name || *e.VaultProject.FilesCount != p.FileCount {
		t.Fatalf("%+v", e)
	}
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_project/"+p.ID, h.admin(), nil), 404)
	mustStatus(t, h.get("/api/v1/vault/projects/"+p.ID+"/files"), 404)
}

type fileDetail struct {
	FileID           string  `json:"file_id"`
	FileName         string  `json:"file_name"`
	ProcessingStatus string  `json:"processing_status"`
	ContentType      string  `json:"content_type"`
	DeletedAt        *string `json:"deleted_at"`
	Error            string  `json:"error"`
}

func (h *harness) getFiles(ids ...string) []fileDetail {
	h.t.Helper()
	r := h.get("/api/v1/vault/get_files?file_ids=" + url.QueryEscape(strings.Join(ids, ",")))
	mustStatus(h.t, r, 200)
	var out struct {
		Response struct {
			Content []fileDetail `json:"content"`
		} `json:"response"`
	}
	r.json(h.t, &out)
	return out.Response.Content
}

func TestGetFiles(t *testing.T) {
	h := newHarness(t)
	pid := h.projectByName("Bellhaven Shipping — Share Purchase").ID
	ids, err := h.sim.AddFiles(pid, []sim.FileSpec{{Name: "Lease (clean).pdf"}, {Name: "Heads of Terms.docx", Status: "processing"}})
	if err != nil {
		t.Fatal(err)
	}
	got := h.getFiles(ids[0], "00000000-0000-4000-8000-000000000000", ids[1])
	if len(got) != 3 || got[0].FileName != "Lease (clean).pdf" || got[0].ProcessingStatus != "ready_to_query" ||
		got[0].ContentType != "application/pdf" || got[1].Error != "not_found" || got[1].FileID == "" ||
		got[2].ProcessingStatus != "processing" {
		t.Fatalf("%+v", got)
	}
	if !strings.Contains(string(h.get("/api/v1/vault/get_files?file_ids="+ids[0]).body), `"deleted_at":null`) {
		t.Fatal("deleted_at must be present as null")
	}
	many := make([]string, sim.MaxFileIDs+1)
	for i := range many {
		many[i] = fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
	}
	mustStatus(t, h.get("/api/v1/vault/get_files?file_ids="+strings.Join(many, ",")), 400)
	if n := len(h.getFiles(many[:sim.MaxFileIDs]...)); n != sim.MaxFileIDs {
		t.Fatalf("1000 ids: %d results", n)
	}
	mustStatus(t, h.get("/api/v1/vault/get_files"), 400)
	mustStatus(t, h.get("/api/v1/vault/get_files?file_ids="), 400)
	mustStatus(t, h.get("/api/v1/vault/get_files?file_ids=,,"), 400)
}

func TestProcessingAndStuck(t *testing.T) {
	for _, c := range []struct {
		share float64
		ready bool
	}{{0, true}, {1, false}} {
		h := newHarness(t, func(o *sim.Options) { o.StuckShare = c.share; o.ProcessingDelay = 45 * time.Second })
		pid := h.projectByName("Bellhaven Shipping — Share Purchase").ID
		id := h.uploadOne(pid, "Costs Budget.xlsx", 1000)
		if st := h.getFiles(id)[0].ProcessingStatus; st != "processing" {
			t.Fatalf("new upload %s", st)
		}
		h.sim.Advance(44 * time.Second)
		if st := h.getFiles(id)[0].ProcessingStatus; st != "processing" {
			t.Fatalf("before delay %s", st)
		}
		h.sim.Advance(time.Second)
		want := "processing"
		if c.ready {
			want = "ready_to_query"
		}
		if st := h.getFiles(id)[0].ProcessingStatus; st != want {
			t.Fatalf("share %v: after delay %s, want %s", c.share, st, want)
		}
	}
	// A fractional share sends roughly that fraction of uploads to stuck.
	h := newHarness(t, func(o *sim.Options) { o.StuckShare = 0.3 })
	pid, _ := h.sim.AddProject(sim.ProjectSpec{Name: "Stuck share"})
	var ids []string
	for i := 0; i < 4; i++ {
		ids = append(ids, h.upload(pid, "keep", nFiles(50, 10)...).FileIDs...)
	}
	h.sim.Advance(time.Hour)
	stuck := 0
	for _, f := range h.getFiles(ids...) {
		if f.ProcessingStatus == "processing" {
			stuck++
		}
	}
	if stuck < 30 || stuck > 90 {
		t.Fatalf("%d of 200 stuck with share 0.3", stuck)
	}
}

type fileList struct {
	Response struct {
		Content struct {
			Files []struct {
				ID               string `json:"id"`
				Name             string `json:"name"`
				ProcessingStatus string `json:"processing_status"`
				UploadedAt       int64  `json:"uploaded_at"`
				Size             int64  `json:"size"`
			} `json:"files"`
			Pagination struct {
				PageSize   int     `json:"page_size"`
				HasMore    bool    `json:"has_more"`
				NextCursor *string `json:"next_cursor"`
				TotalCount int     `json:"total_count"`
			} `json:"pagination"`
		} `json:"content"`
	} `json:"response"`
}

func TestListFilesAndProjects(t *testing.T) {
	h := newHarness(t)
	p := h.projectByName("Acme Corp v. Halvorsen — Patent Litigation")
	seen := map[string]bool{}
	cursor := ""
	for pages := 0; ; pages++ {
		r := h.get("/api/v1/vault/projects/" + p.ID + "/files?limit=7&cursor=" + url.QueryEscape(cursor))
		mustStatus(t, r, 200)
		var fl fileList
		r.json(t, &fl)
		c := fl.Response.Content
		if c.Pagination.TotalCount != p.FileCount {
			t.Fatalf("total_count %d want %d", c.Pagination.TotalCount, p.FileCount)
		}
		for _, f := range c.Files {
			if seen[f.ID] {
				t.Fatalf("file %s twice", f.ID)
			}
			seen[f.ID] = true
		}
		if !c.Pagination.HasMore {
			if c.Pagination.NextCursor != nil {
				t.Fatal("next_cursor must be null on the last page")
			}
			break
		}
		cursor = *c.Pagination.NextCursor
	}
	if len(seen) != p.FileCount {
		t.Fatalf("paged %d of %d", len(seen), p.FileCount)
	}
	var fl fileList
	h.get("/api/v1/vault/projects/"+p.ID+"/files?limit=100&processing_status=ready_to_query&processing_status=UPLOADED").json(t, &fl)
	for _, f := range fl.Response.Content.Files {
		if f.ProcessingStatus != "READY_TO_QUERY" && f.ProcessingStatus != "UPLOADED" {
			t.Fatalf("status filter leaked %s", f.ProcessingStatus)
		}
	}
	mustStatus(t, h.get("/api/v1/vault/projects/"+p.ID+"/files?limit=101"), 400)
	mustStatus(t, h.get("/api/v1/vault/projects/"+p.ID+"/files?processing_status=DONE"), 400)
	mustStatus(t, h.get("/api/v1/vault/projects/00000000-0000-4000-8000-000000000000/files"), 404)

	var pl struct {
		Response struct {
			Content struct {
				Pagination struct {
					Page       int `json:"page"`
					Total      int `json:"total"`
					TotalPages int `json:"total_pages"`
				} `json:"pagination"`
				Projects []struct {
					Name      string `json:"name"`
					CreatedAt string `json:"created_at"`
				} `json:"projects"`
			} `json:"content"`
		} `json:"response"`
	}
	h.get("/api/v1/vault/workspace/projects?per_page=5&page=2").json(t, &pl)
	c := pl.Response.Content
	if c.Pagination.Page != 2 || c.Pagination.Total < 12 || c.Pagination.TotalPages != (c.Pagination.Total+4)/5 || len(c.Projects) != 5 {
		t.Fatalf("%+v", c.Pagination)
	}
	for i, pr := range c.Projects {
		if !reNaive.MatchString(pr.CreatedAt) || (i > 0 && pr.Name < c.Projects[i-1].Name) {
			t.Fatalf("%+v", pr)
		}
	}
	mustStatus(t, h.get("/api/v1/vault/workspace/projects?per_page=0"), 400)
	mustStatus(t, h.get("/api/v1/vault/workspace/projects?page=0"), 400)
}

func TestProjectUsers(t *testing.T) {
	h := newHarness(t)
	type users struct {
		Status string `json:"status"`
		Data   struct {
			ProjectID string `json:"project_id"`
			Users     []struct {
				UserID, Email, Name string
				AccessLevel         string `json:"access_level"`
			} `json:"users"`
		} `json:"data"`
	}
	levels := map[string]bool{}
	for _, p := range h.sim.Projects() {
		var u users
		h.get("/api/v1/vault/projects/"+p.ID+"/users").json(t, &u)
		if u.Status != "COMPLETED" || u.Data.ProjectID != p.ID || len(u.Data.Users) == 0 || u.Data.Users[0].AccessLevel != "MANAGE" {
			t.Fatalf("%s: %+v", p.Name, u)
		}
		emails := map[string]bool{}
		for _, x := range u.Data.Users {
			if emails[x.Email] {
				t.Fatalf("%s listed twice", x.Email)
			}
			emails[x.Email] = true
			levels[x.AccessLevel] = true
		}
		if p.Name == "Firm Precedents Library" && len(u.Data.Users) != 40 {
			t.Fatalf("workspace-shared project should list every user (inherited), got %d", len(u.Data.Users))
		}
	}
	if !levels["MANAGE"] || !levels["READ"] {
		t.Fatalf("levels %v", levels)
	}
	mustStatus(t, h.get("/api/v1/vault/projects/00000000-0000-4000-8000-000000000000/users"), 404)
}
