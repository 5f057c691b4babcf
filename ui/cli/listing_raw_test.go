package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// projectsBody is one page of n projects in the envelope, each item in a
// form a re-encoder would not keep (key order, spacing, number forms).
func projectsBody(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"response":{"content":{"pagination":{"page":1,"per_page":100,"total":`)
	fmt.Fprintf(&b, `%d,"total_pages":1},"projects":[`, n)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"size_bytes": 1.0e3 ,"name":"Project %d","id":"p-%06d","files_count":%d,"created_at":"2026-01-02T03:04:05Z","creator_email":"a%d@example.com","extra":{"k":[1,2]}}`, i, i, i, i)
	}
	b.WriteString("]}}}")
	return b.Bytes()
}

// filesBody is one page of n files in the envelope, as projectsBody.
func filesBody(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"response":{"content":{"files":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"size": 1.0e3 ,"name":"File %d.pdf","id":"f-%06d","processing_status":"READY_TO_QUERY","uploaded_at":"2026-01-02T03:04:05Z","content_type":"application/pdf","extra":{"k":[1,2]}}`, i, i)
	}
	b.WriteString(`],"pagination":{"has_more":false,"next_cursor":null}}}}`)
	return b.Bytes()
}

func runProjectsJSON(t testing.TB, body []byte, out io.Writer) {
	runJSON(t, body, out, "projects", "--json")
}

func runJSON(t testing.TB, body []byte, out io.Writer, args ...string) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	env := Env{Stdout: out, Stderr: io.Discard, Limits: api.Limits{Vault: -1},
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": "test-token-0123", "VAULTDECK_BASE_URL": srv.URL}[k]
		}}
	if code := Main(context.Background(), args, env); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// TestProjectsJSONWritesItemsRawWithoutDecodingThem: `projects --json`
// writes each project as the server sent it and decodes of it only the ID
// the page guard needs, so an item costs no record of its own (its bytes
// stay in the page's content): at most two allocations an item (the ID
// string and the JSON library's copy of what it decodes), where decoding
// each item whole and keeping its copy cost 9.4.
func TestProjectsJSONWritesItemsRawWithoutDecodingThem(t *testing.T) {
	big, one := projectsBody(100), projectsBody(1)
	var out bytes.Buffer
	runProjectsJSON(t, big, &out)
	if want := `{"size_bytes": 1.0e3 ,"name":"Project 7","id":"p-000007","files_count":7,`; !bytes.Contains(out.Bytes(), []byte(want)) {
		t.Fatalf("the item is not written as sent; output starts %.300q", out.String())
	}
	allocs := func(body []byte) float64 {
		return testing.AllocsPerRun(5, func() { runProjectsJSON(t, body, io.Discard) })
	}
	a100, a1 := allocs(big), allocs(one)
	if per := (a100 - a1) / 99; per > 2 {
		t.Errorf("projects --json allocates %.1f times per item (%.0f for 100 items, %.0f for 1): each item is decoded whole", per, a100, a1)
	}
}

// TestFilesJSONWritesItemsRawWithoutDecodingThem is the same for `files
// --json`: each file as sent, only its ID decoded.
func TestFilesJSONWritesItemsRawWithoutDecodingThem(t *testing.T) {
	big, one := filesBody(100), filesBody(1)
	var out bytes.Buffer
	runJSON(t, big, &out, "files", "0b6f5c1e-0000-4000-8000-000000000001", "--json")
	if want := `{"size": 1.0e3 ,"name":"File 7.pdf","id":"f-000007",`; !bytes.Contains(out.Bytes(), []byte(want)) {
		t.Fatalf("the item is not written as sent; output starts %.300q", out.String())
	}
	allocs := func(body []byte) float64 {
		return testing.AllocsPerRun(5, func() { runJSON(t, body, io.Discard, "files", "0b6f5c1e-0000-4000-8000-000000000001", "--json") })
	}
	a100, a1 := allocs(big), allocs(one)
	if per := (a100 - a1) / 99; per > 2 {
		t.Errorf("files --json allocates %.1f times per item (%.0f for 100 items, %.0f for 1): each item is decoded whole", per, a100, a1)
	}
}
