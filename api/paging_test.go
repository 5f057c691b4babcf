package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestProjectFilesStopsOnRepeatedCursor: a cursor handed out again
// would go round in a circle; the listing ends with an error naming the
// endpoint, after the files that were new.
func TestProjectFilesStopsOnRepeatedCursor(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		// a buggy server: always has_more, cursor alternates a, b, a
		cur := map[string]string{"": "a", "a": "b", "b": "a"}[r.URL.Query().Get("cursor")]
		fmt.Fprintf(w, `{"response":{"content":{"files":[{"id":"%d"}],"pagination":{"has_more":true,"next_cursor":"%s"}}}}`, n.Load(), cur)
	}), func(c *Config) { c.Limits = Limits{Vault: -1} })
	count := 0
	_, last := h.c.ProjectFiles("p", FileQuery{}).Each(context.Background(), func(*ProjectFile, RawItem) error { count++; return nil }, nil)
	if count != 3 || n.Load() != 3 || kindOf(last) != KindMalformed || !strings.Contains(last.Error(), "GET /api/v1/vault/projects/{project_id}/files") ||
		!strings.Contains(last.Error(), "next_cursor it had already given") {
		t.Errorf("files %d requests %d, error %v", count, n.Load(), last)
	}
}

func TestProjectsPages(t *testing.T) {
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		projects := []map[string]any{}
		if page <= 3 {
			for i := range 2 {
				projects = append(projects, map[string]any{"id": fmt.Sprintf("%d-%d", page, i)})
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"response": map[string]any{"content": map[string]any{
			"pagination": map[string]int{"page": page, "per_page": 100, "total": 6, "total_pages": 3}, "projects": projects}}})
	}), func(c *Config) { c.Limits = Limits{Vault: -1} })
	ps, s, err := h.c.Projects(ProjectQuery{}).Collect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	if fmt.Sprint(ids) != "[1-0 1-1 2-0 2-1 3-0 3-1]" || s != (Summary{Total: 6, HasTotal: true}) {
		t.Errorf("%v %+v", ids, s)
	}
	// Cancellation stops the listing, between two projects of a page,
	// with a canceled error.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	_, last := h.c.Projects(ProjectQuery{}).Each(ctx, func(*Project, RawItem) error { n++; cancel(); return nil }, nil)
	if kindOf(last) != KindCanceled || n != 1 {
		t.Errorf("after cancel: %d %v", n, last)
	}
}

func TestAuditLogPages(t *testing.T) {
	const total = 2500
	var calls atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/logs/audit/earliest", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"log":{"id":"0000","type":"auth:login"}}`)
	})
	mux.HandleFunc("GET /api/v1/logs/audit", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		from, _ := strconv.Atoi(r.URL.Query().Get("from"))
		take, _ := strconv.Atoi(r.URL.Query().Get("take"))
		out := []map[string]string{}
		for i := from + 1; i <= total && len(out) < take; i++ {
			typ := "auth:login"
			if i%2 == 0 {
				typ = "user:other"
			}
			out = append(out, map[string]string{"id": fmt.Sprintf("%04d", i), "type": typ})
		}
		json.NewEncoder(w).Encode(out)
	})
	h := newHarness(t, mux)
	n := 0
	if _, err := h.c.Audit(AuditQuery{}).Each(context.Background(), func(*AuditEntry, RawItem) error { n++; return nil }, nil); err != nil {
		t.Fatal(err)
	}
	if n != total+1 || calls.Load() != 3 {
		t.Errorf("entries %d calls %d", n, calls.Load())
	}
	n = 0
	_, err := h.c.Audit(AuditQuery{Type: "AUTH:LOGIN"}).Each(context.Background(), func(e *AuditEntry, _ RawItem) error {
		if e.Type != "auth:login" {
			return fmt.Errorf("an entry of type %s", e.Type)
		}
		n++
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n != total/2+1 {
		t.Errorf("filtered %d", n)
	}
}

// TestShiftedPageKeepsEachProjectOnce: a project added while the listing
// is read shifts the pages, so page 2 starts with page 1's last project.
// That is no repeat: the listing goes on, and the project is handed out
// once.
func TestShiftedPageKeepsEachProjectOnce(t *testing.T) {
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		ids := map[int][]string{1: {"a", "b"}, 2: {"b", "c"}, 3: {"d"}}[page]
		projects := []map[string]any{}
		for _, id := range ids {
			projects = append(projects, map[string]any{"id": id})
		}
		json.NewEncoder(w).Encode(map[string]any{"response": map[string]any{"content": map[string]any{
			"pagination": map[string]int{"page": page, "per_page": 2, "total": 5, "total_pages": 3}, "projects": projects}}})
	}), func(c *Config) { c.Limits = Limits{Vault: -1} })
	var ids []string
	_, err := h.c.Projects(ProjectQuery{}).Each(context.Background(), func(p *Project, _ RawItem) error {
		ids = append(ids, p.ID)
		return nil
	}, nil)
	if err != nil || fmt.Sprint(ids) != "[a b c d]" {
		t.Errorf("%v %v", ids, err)
	}
}

// TestFilesUploadedSinceStopsOnRepeatedFiles: the upload's reconciliation
// listing (newest first, down to the run's start) had its own cursor loop
// with no page guard: pages that bring the same files under ever new
// cursors were read forever, the files piling up in its answer. It ends
// with an error naming the endpoint once a page brings nothing new, as
// every paged reader does.
func TestFilesUploadedSinceStopsOnRepeatedFiles(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) > 50 {
			fmt.Fprint(w, `{"response":{"content":{"files":[],"pagination":{"has_more":false}}}}`)
			return
		}
		fmt.Fprintf(w, `{"response":{"content":{"files":[{"id":"f1","name":"a.pdf","uploaded_at":"2099-01-01T00:00:00Z"}],"pagination":{"has_more":true,"next_cursor":"c%d"}}}}`, n.Load())
	}), func(c *Config) { c.Limits = Limits{Vault: -1} })
	files, err := h.c.FilesUploadedSince(context.Background(), "p", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if n.Load() != 2 || kindOf(err) != KindMalformed || !strings.Contains(fmt.Sprint(err), "GET /api/v1/vault/projects/{project_id}/files") {
		t.Fatalf("%d requests, %d files, error %v: want the read stopped at the second page, which repeats the first", n.Load(), len(files), err)
	}
}
