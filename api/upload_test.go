package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

type uploadLog struct {
	mu       sync.Mutex
	requests []map[string][]string // field -> values; "files" -> filenames
	chunked  []bool
	exact    []bool // Content-Length given and equal to the bytes received
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (u *uploadLog) handler(w http.ResponseWriter, r *http.Request) {
	cr := &countingReader{r: r.Body}
	r.Body = io.NopCloser(cr)
	mr, err := r.MultipartReader()
	if err != nil {
		w.WriteHeader(400)
		return
	}
	got := map[string][]string{}
	var ids []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			w.WriteHeader(400)
			return
		}
		b, _ := io.ReadAll(p)
		if p.FormName() == "files" {
			got["files"] = append(got["files"], p.FileName())
			got["sizes"] = append(got["sizes"], fmt.Sprint(len(b)))
			ids = append(ids, "id-"+p.FileName())
		} else {
			got[p.FormName()] = append(got[p.FormName()], string(b))
		}
	}
	u.mu.Lock()
	u.requests = append(u.requests, got)
	io.Copy(io.Discard, cr)
	u.chunked = append(u.chunked, r.ContentLength == -1)
	u.exact = append(u.exact, r.ContentLength > 0 && r.ContentLength == cr.n)
	u.mu.Unlock()
	w.WriteHeader(201)
	json.NewEncoder(w).Encode(UploadResult{ProjectID: r.PathValue("id"), FileIDs: ids})
}

func TestUploadStreamsAndBatches(t *testing.T) {
	ul := &uploadLog{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v1/vault/upload_files/{id}", ul.handler)
	h := newHarness(t, mux, func(c *Config) { c.Limits = Limits{Vault: -1} })
	var opened atomic.Int32
	files := make([]UploadFile, 120)
	for i := range files {
		name := fmt.Sprintf("doc-%03d.pdf", i)
		files[i] = UploadFile{Name: name, Path: "/cases/" + name, Size: 3, Open: func() (io.ReadCloser, error) {
			opened.Add(1)
			return io.NopCloser(strings.NewReader("abc")), nil
		}}
	}
	files[0].Size = 5 << 20
	files[0].Open = func() (io.ReadCloser, error) {
		opened.Add(1)
		return io.NopCloser(io.LimitReader(zeros{}, 5<<20)), nil
	}
	r, err := h.c.Upload(context.Background(), "proj-1", files, DuplicateReplace)
	if err != nil {
		t.Fatal(err)
	}
	if len(ul.requests) != 3 || len(r.FileIDs) != 120 || r.FileIDs[119] != "id-doc-119.pdf" || r.ProjectID != "proj-1" {
		t.Fatalf("requests %d, ids %d", len(ul.requests), len(r.FileIDs))
	}
	first := ul.requests[0]
	if len(first["files"]) != 50 || first["duplicate_mode"][0] != "replace" || first["file_paths"][1] != "/cases/doc-001.pdf" || first["sizes"][0] != fmt.Sprint(5<<20) {
		t.Errorf("first request: mode %v paths %d sizes %v", first["duplicate_mode"], len(first["file_paths"]), first["sizes"][:2])
	}
	for i := range ul.requests {
		if ul.chunked[i] || !ul.exact[i] {
			t.Errorf("request %d: chunked %v, exact Content-Length %v", i, ul.chunked[i], ul.exact[i])
		}
	}
	if opened.Load() != 120 {
		t.Errorf("opened %d", opened.Load())
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestUploadRefusesTooLargeBeforeSending(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	files := []UploadFile{memFile("ok.pdf", "x"), {Name: "huge deposition.mp4", Size: MaxFileBytes + 1, Open: func() (io.ReadCloser, error) {
		t.Error("opened an oversized file")
		return nil, io.EOF
	}}}
	_, err := h.c.Upload(context.Background(), "p", files, DuplicateSkip)
	if kindOf(err) != KindTooLarge || !strings.Contains(err.Error(), `"huge deposition.mp4"`) || n.Load() != 0 {
		t.Fatalf("got %v after %d requests", err, n.Load())
	}
	if _, err := h.c.Upload(context.Background(), "p", []UploadFile{memFile("a", "b")}, "merge"); kindOf(err) != KindInvalidRequest {
		t.Errorf("bad mode: %v", err)
	}
}

func TestUploadOpenFailure(t *testing.T) {
	ul := &uploadLog{}
	h := newHarness(t, http.HandlerFunc(ul.handler))
	files := []UploadFile{{Name: "gone.pdf", Size: 1, Open: func() (io.ReadCloser, error) { return nil, fmt.Errorf("no such file") }}}
	_, err := h.c.Upload(context.Background(), "p", files, DuplicateSkip)
	if err == nil || !strings.Contains(err.Error(), "cannot open \"gone.pdf\"") {
		t.Fatalf("got %v", err)
	}
}

func TestUploadDefaultModeIsSent(t *testing.T) {
	ul := &uploadLog{}
	h := newHarness(t, http.HandlerFunc(ul.handler))
	if _, err := h.c.Upload(context.Background(), "p", []UploadFile{memFile("a.txt", "b")}, ""); err != nil {
		t.Fatal(err)
	}
	if ul.requests[0]["duplicate_mode"][0] != "skip" || ul.requests[0]["file_paths"][0] != "a.txt" {
		t.Errorf("%v", ul.requests[0])
	}
}
