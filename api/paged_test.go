package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// rawProjects lists every project through Raw, each item's bytes as a
// string.
func rawProjects(h *harness) ([]string, error) {
	var got []string
	_, err := h.c.Projects(ProjectQuery{}).Raw(context.Background(), func(it RawItem) error {
		got = append(got, string(it.Bytes))
		return nil
	}, nil)
	return got, err
}

// TestProjectsRawHandsTheServersBytes: the raw listing hands each
// project as sent (spacing, key order, number forms), the same items as
// the decoding listing, and keeps its paging checks: a page that repeats
// an earlier one ends it as Each ends.
func TestProjectsRawHandsTheServersBytes(t *testing.T) {
	item := func(i int) string {
		return fmt.Sprintf(`{ "size_bytes":1.0e3, "id" : "p%d","name":"P\u0041 %d"}`, i, i)
	}
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Query().Get("page")
		fmt.Fprintf(w, `{"response":{"content":{"projects":[%s,%s],"pagination":{"page":%s,"total":6,"total_pages":3}}}}`,
			item(2*len(page)), item(2*len(page)+1), page)
	}), func(c *Config) { c.Limits = Limits{Vault: -1} })
	got, err := rawProjects(h)
	if err == nil || !strings.Contains(err.Error(), "repeats an earlier page") || len(got) != 2 || got[0] != item(2) || got[1] != item(3) {
		t.Errorf("items %q, error %v", got, err)
	}
}

// TestProjectsRawRefusesWhatADecodeRefused: an item that is not an
// object, an ID that is not a string, and a projects member that is not an
// array are malformed answers, not items written as they are.
func TestProjectsRawRefusesWhatADecodeRefused(t *testing.T) {
	for name, content := range map[string]string{
		"item not an object":  `{"projects":[{"id":"a"},"b"],"pagination":{"total_pages":1}}`,
		"id not a string":     `{"projects":[{"id":{"x":1}}],"pagination":{"total_pages":1}}`,
		"projects an object":  `{"projects":{"id":"a"},"pagination":{"total_pages":1}}`,
		"pagination a string": `{"projects":[{"id":"a"}],"pagination":"x"}`,
	} {
		h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"response":{"content":%s}}`, content)
		}), func(c *Config) { c.Limits = Limits{Vault: -1} })
		got, err := rawProjects(h)
		if kindOf(err) != KindMalformed || len(got) != 0 {
			t.Errorf("%s: items %q, error %v", name, got, err)
		}
	}
}

// TestProjectFilesRawStopsOnRepeatedCursor: the raw files listing
// keeps the cursor check: a cursor handed out again ends it with an error
// after the files that were new, each as sent.
func TestProjectFilesRawStopsOnRepeatedCursor(t *testing.T) {
	n := 0
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		cur := map[string]string{"": "a", "a": "b", "b": "a"}[r.URL.Query().Get("cursor")]
		fmt.Fprintf(w, `{"response":{"content":{"files":[{ "id" :"%d","size":1e3}],"pagination":{"has_more":true,"next_cursor":"%s"}}}}`, n, cur)
	}), func(c *Config) { c.Limits = Limits{Vault: -1} })
	var got []string
	_, err := h.c.ProjectFiles("p", FileQuery{}).Raw(context.Background(), func(it RawItem) error {
		got = append(got, string(it.Bytes))
		return nil
	}, nil)
	if len(got) != 3 || got[2] != `{ "id" :"3","size":1e3}` || kindOf(err) != KindMalformed || !strings.Contains(fmt.Sprint(err), "next_cursor it had already given") {
		t.Errorf("files %q, error %v", got, err)
	}
}
