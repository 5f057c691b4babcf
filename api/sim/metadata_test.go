package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestDeleteFile: §4.7 as the simulator answers it. A file still being
// processed is refused with 409 and kept; a ready one is deleted (200),
// then gone from the listing and the metadata, found by get_files with its
// deleted_at, 404 to a second deletion, and recorded in the audit log.
func TestDeleteFile(t *testing.T) {
	h := newHarness(t)
	pid, err := h.sim.AddProject(sim.ProjectSpec{Name: "Delete me"})
	if err != nil {
		t.Fatal(err)
	}
	id := h.uploadOne(pid, "a.pdf", 10) // processing for ProcessingDelay
	r := h.do("DELETE", "/api/v1/vault/delete_file/"+id, h.admin(), nil)
	mustStatus(t, r, 409)
	if f, _ := h.sim.File(id); f.Deleted {
		t.Fatal("a refused deletion deleted the file")
	}
	h.sim.Advance(time.Hour)
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_file/"+id, h.admin(), nil), 200)
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_file/"+id, h.admin(), nil), 404)
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_file/00000000-0000-4000-8000-000000000000", h.admin(), nil), 404)
	if l := h.get("/api/v1/vault/projects/" + pid + "/files"); strings.Contains(string(l.body), id) {
		t.Fatalf("the deleted file is still listed: %s", l.body)
	}
	var gf struct {
		Response struct {
			Content []map[string]any `json:"content"`
		} `json:"response"`
	}
	h.get("/api/v1/vault/get_files?file_ids="+id).json(t, &gf)
	if len(gf.Response.Content) != 1 || gf.Response.Content[0]["deleted_at"] == nil {
		t.Fatalf("get_files of a deleted file: %+v", gf)
	}
	var meta struct {
		Response struct {
			Content []map[string]any `json:"content"`
		} `json:"response"`
	}
	h.get("/api/v1/vault/get_metadata/"+pid).json(t, &meta)
	if c := meta.Response.Content[0]; c["file_count"] != float64(0) || c["project_size"] != "0" {
		t.Fatalf("metadata after the deletion: %+v", c)
	}
	var latest struct {
		Log struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		} `json:"log"`
	}
	h.get("/api/v1/logs/audit/latest?log_type="+sim.AuditAPIDeleteFile).json(t, &latest)
	if latest.Log.Data["file_id"] != id || latest.Log.Data["project_id"] != pid {
		t.Fatalf("the deletion's audit entry: %+v", latest.Log)
	}
	// a user without Modify workspace projects is refused
	if r := h.do("DELETE", "/api/v1/vault/delete_file/"+id, h.sim.Token("readonly"), nil); r.status != 403 && r.status != 401 {
		t.Fatalf("a read-only token deleting: %d %s", r.status, r.body)
	}
}

// TestGetMetadataBothShapes: 201, the size a string, content a list (the
// current shape, with file names) or an object (the older one).
func TestGetMetadataBothShapes(t *testing.T) {
	h := newHarness(t)
	pid, _ := h.sim.AddProject(sim.ProjectSpec{Name: "Meta"})
	h.uploadOne(pid, "a.pdf", 1234)
	r := h.get("/api/v1/vault/get_metadata/" + pid)
	mustStatus(t, r, 201)
	if !strings.Contains(string(r.body), `"project_size":"1234"`) || !strings.Contains(string(r.body), `"content":[{`) ||
		!strings.Contains(string(r.body), `"file_names":["a.pdf"]`) || !strings.Contains(string(r.body), `"max_file_count":100000`) {
		t.Fatalf("%s", r.body)
	}
	h.sim.SetMetadataShape(true)
	r = h.get("/api/v1/vault/get_metadata/" + pid)
	mustStatus(t, r, 201)
	if !strings.Contains(string(r.body), `"content":{"`) || !strings.Contains(string(r.body), `"project_size":"1234"`) {
		t.Fatalf("flat: %s", r.body)
	}
	mustStatus(t, h.get("/api/v1/vault/get_metadata/nope"), 404)
}

// TestUploadRefusedPastProjectLimits: an upload that would pass a
// project's file count or size is refused whole, nothing stored; a
// replace swaps one file and adds none.
func TestUploadRefusedPastProjectLimits(t *testing.T) {
	h := newHarness(t)
	pid, _ := h.sim.AddProject(sim.ProjectSpec{Name: "Limits"})
	h.upload(pid, "keep", nFiles(3, 10)...)
	mustStatus(t, h.do("POST", "/_sim/project_limits", "", map[string]any{"project_id": pid, "max_file_count": 4, "max_project_size": 100}), 200)
	r := h.postUpload(pid, "keep", nFiles(2, 1)...)
	if r.status != 400 || !strings.Contains(string(r.body), "file limit") {
		t.Fatalf("%d %s", r.status, r.body)
	}
	r = h.postUpload(pid, "keep", upFile{"big.pdf", 71})
	if r.status != 400 || !strings.Contains(string(r.body), "size limit") {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if p := h.projectByName("Limits"); p.FileCount != 3 {
		t.Fatalf("a refused upload stored files: %d", p.FileCount)
	}
	h.upload(pid, "replace", nFiles(3, 30)...) // 3 replaced: still 3 files, 90 bytes
	h.upload(pid, "keep", upFile{"d.pdf", 10})
	if p := h.projectByName("Limits"); p.FileCount != 4 {
		t.Fatalf("%d files", p.FileCount)
	}
}
