package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The copy is the body as the server sent it (spacing, key order, unknown
// fields), not a re-encoding; a body over the limit is not kept at all.
func TestWithBodyCopy(t *testing.T) {
	const body = `{ "total": 1,  "items": [ {"id": "e1", "extra": true} ] }`
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	defer hs.Close()
	c, err := New(Config{BaseURL: hs.URL, Token: StaticToken("t"), Limits: Limits{Vault: -1}})
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	ctx := WithBodyCopy(context.Background(), 1<<20, func(b []byte) { got = append([]byte(nil), b...) })
	if _, err := binOf(c.RecycleBin(RecycleBinQuery{}).Collect(ctx)); err != nil {
		t.Fatal(err)
	}
	if string(got) != body {
		t.Errorf("copy %q, want the body as sent", got)
	}
	got = nil
	ctx = WithBodyCopy(context.Background(), 10, func(b []byte) { got = b })
	if _, err := binOf(c.RecycleBin(RecycleBinQuery{}).Collect(ctx)); err != nil || got != nil {
		t.Errorf("over the limit: kept %q (err %v)", got, err)
	}
}

// For an enveloped answer the copy is the content, so it decodes into the
// same type the call returns.
func TestWithBodyCopyEnvelope(t *testing.T) {
	const content = `{"projects":[{"id":"p1","name":"Acme"}],"pagination":{"page":1,"total_pages":1,"total":1}}`
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"response":{"content":` + content + `}}`))
	}))
	defer hs.Close()
	c, err := New(Config{BaseURL: hs.URL, Token: StaticToken("t"), Limits: Limits{Vault: -1}})
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	ctx := WithBodyCopy(context.Background(), 1<<20, func(b []byte) { got = append([]byte(nil), b...) })
	if _, err := c.ProjectsPage(ctx, ProjectQuery{}); err != nil {
		t.Fatal(err)
	}
	if string(got) != content {
		t.Errorf("copy %q, want the content as sent", got)
	}
}
