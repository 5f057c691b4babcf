package sim_test

import (
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

type upFile struct {
	name string
	size int64
}

func nFiles(n int, size int64) []upFile {
	out := make([]upFile, n)
	for i := range out {
		out[i] = upFile{fmt.Sprintf("Exhibit %03d.pdf", i+1), size}
	}
	return out
}

// zeros is an endless reader that allocates nothing, so the memory test
// measures the server, not the test.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// postUpload streams a multipart body through a pipe (files and file_paths
// repeated per file, duplicate_mode last as a browser form might send it).
func (h *harness) postUpload(pid, mode string, files ...upFile) response {
	h.t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := func() error {
			for _, f := range files {
				w, err := mw.CreateFormFile("files", f.name)
				if err != nil {
					return err
				}
				if _, err := io.CopyN(w, zeros{}, f.size); err != nil {
					return err
				}
				if err := mw.WriteField("file_paths", "/evidence/"+f.name); err != nil {
					return err
				}
			}
			if mode != "" {
				if err := mw.WriteField("duplicate_mode", mode); err != nil {
					return err
				}
			}
			return mw.Close()
		}()
		pw.CloseWithError(err)
	}()
	req, _ := http.NewRequest("POST", h.url+"/api/v1/vault/upload_files/"+pid, pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+h.admin())
	res, err := h.http.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{res.StatusCode, res.Header, b}
}

type uploadResult struct {
	ProjectID string   `json:"project_id"`
	FileIDs   []string `json:"file_ids"`
}

func (h *harness) upload(pid, mode string, files ...upFile) uploadResult {
	h.t.Helper()
	r := h.postUpload(pid, mode, files...)
	mustStatus(h.t, r, 201)
	var u uploadResult
	r.json(h.t, &u)
	return u
}

func (h *harness) uploadOne(pid, name string, size int64) string {
	h.t.Helper()
	u := h.upload(pid, "keep", upFile{name, size})
	if len(u.FileIDs) != 1 {
		h.t.Fatalf("%+v", u)
	}
	return u.FileIDs[0]
}

func TestUploadDuplicateModes(t *testing.T) {
	h := newHarness(t)
	pid, _ := h.sim.AddProject(sim.ProjectSpec{Name: "Upload modes"})
	first := h.upload(pid, "skip", upFile{"report.pdf", 10}, upFile{"notes.docx", 5})
	if first.ProjectID != pid || len(first.FileIDs) != 2 {
		t.Fatalf("%+v", first)
	}
	orig := first.FileIDs[0]
	fi, _ := h.sim.File(orig)
	if fi.Path != "/evidence/report.pdf" || fi.Size != 10 || fi.ContentType != "application/pdf" || fi.ProjectID != pid {
		t.Fatalf("%+v", fi)
	}

	// skip: an existing name yields no id and no record; new names still land.
	if u := h.upload(pid, "skip", upFile{"report.pdf", 99}, upFile{"new.txt", 1}); len(u.FileIDs) != 1 {
		t.Fatalf("skip: %+v", u)
	}
	// missing duplicate_mode behaves as skip.
	if u := h.upload(pid, "", upFile{"report.pdf", 99}); len(u.FileIDs) != 0 {
		t.Fatalf("default: %+v", u)
	}
	if n := h.projectByName("Upload modes").FileCount; n != 3 {
		t.Fatalf("file count %d", n)
	}

	// replace: new id, root_file_id = original, old record retired.
	rep := h.upload(pid, "replace", upFile{"report.pdf", 20})
	nf, _ := h.sim.File(rep.FileIDs[0])
	if nf.ID == orig || nf.RootFileID != orig || nf.Name != "report.pdf" {
		t.Fatalf("replace: %+v", nf)
	}
	if old, _ := h.sim.File(orig); !old.Deleted {
		t.Fatal("replaced file should be retired")
	}
	if d := h.getFiles(orig)[0]; d.DeletedAt == nil || d.Error != "" {
		t.Fatalf("replaced file detail %+v", d)
	}
	rep2 := h.upload(pid, "replace", upFile{"report.pdf", 30})
	if f, _ := h.sim.File(rep2.FileIDs[0]); f.RootFileID != orig {
		t.Fatalf("second replace root %s", f.RootFileID)
	}

	// keep: numbered names, also within one request.
	k := h.upload(pid, "keep", upFile{"report.pdf", 1}, upFile{"report.pdf", 1}, upFile{"archive", 1})
	var names []string
	for _, id := range k.FileIDs {
		f, _ := h.sim.File(id)
		names = append(names, f.Name)
	}
	if got := strings.Join(names, "|"); got != "report (1).pdf|report (2).pdf|archive" {
		t.Fatalf("keep names %v", names)
	}

	mustStatus(t, h.postUpload(pid, "overwrite", upFile{"x.pdf", 1}), 400)
	mustStatus(t, h.postUpload("00000000-0000-4000-8000-000000000000", "keep", upFile{"x.pdf", 1}), 404)
}

func TestUploadLimits(t *testing.T) {
	h := newHarness(t, func(o *sim.Options) { o.MaxFileBytes = 1000 })
	pid, _ := h.sim.AddProject(sim.ProjectSpec{Name: "Limits"})
	h.upload(pid, "keep", nFiles(sim.MaxFilesPerUpload, 1)...)
	r := h.postUpload(pid, "keep", nFiles(sim.MaxFilesPerUpload+1, 1)...)
	mustStatus(t, r, 400)
	if !strings.Contains(string(r.body), "Too many files") {
		t.Fatal(string(r.body))
	}
	h.upload(pid, "keep", upFile{"exact.pdf", 1000})
	r = h.postUpload(pid, "keep", upFile{"ok.pdf", 10}, upFile{"Expert Report on Damages.pdf", 1001})
	mustStatus(t, r, 413)
	if !strings.Contains(string(r.body), `Expert Report on Damages.pdf`) {
		t.Fatal(string(r.body))
	}
	if n := h.projectByName("Limits").FileCount; n != sim.MaxFilesPerUpload+1 {
		t.Fatalf("a refused upload stored files: %d", n)
	}
	mustStatus(t, h.postUpload(pid, "keep"), 400) // no files at all
}

func TestUploadDefaultLimitMessage(t *testing.T) {
	h := newHarness(t)
	pid, _ := h.sim.AddProject(sim.ProjectSpec{Name: "Default limit"})
	// 500,000,001 zero bytes streamed: the server must refuse without storing.
	if testing.Short() {
		t.Skip("streams 500 MB")
	}
	r := h.postUpload(pid, "keep", upFile{"huge.pdf", sim.MaxFileBytes + 1})
	mustStatus(t, r, 413)
	if string(r.body) != `{"error":"File \"huge.pdf\" is larger than the 500 MB limit"}`+"\n" {
		t.Fatal(string(r.body))
	}
}

// TestUploadStreams checks the handler does not buffer: uploading 20 MB
// must allocate far less than 20 MB in the whole process.
func TestUploadStreams(t *testing.T) {
	h := newHarness(t)
	pid, _ := h.sim.AddProject(sim.ProjectSpec{Name: "Streaming"})
	h.uploadOne(pid, "warmup.pdf", 1<<20)
	const size = 20 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	id := h.uploadOne(pid, "Data Room Index.xlsx", size)
	runtime.ReadMemStats(&after)
	if f, _ := h.sim.File(id); f.Size != size {
		t.Fatalf("size %d", f.Size)
	}
	if delta := after.TotalAlloc - before.TotalAlloc; delta > size/4 {
		t.Fatalf("upload of %d bytes allocated %d bytes", size, delta)
	} else {
		t.Logf("20 MB upload allocated %d KB", delta/1024)
	}
}
