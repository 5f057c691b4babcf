package api

import (
	"context"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCAFileTrustsExtraRootAndVerifies(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"name":"ok"}`)
	}))
	defer srv.Close()
	// Without the CA: verification fails (never skipped).
	c, err := New(Config{BaseURL: srv.URL, Token: StaticToken(secretToken)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WhoAmI(context.Background()); kindOf(err) != KindNetwork {
		t.Fatalf("unverified TLS accepted: %v", err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600)
	c, err = New(Config{BaseURL: srv.URL, Token: StaticToken(secretToken), CAFile: ca})
	if err != nil {
		t.Fatal(err)
	}
	if w, err := c.WhoAmI(context.Background()); err != nil || w.Name != "ok" {
		t.Fatalf("with CA: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.pem")
	os.WriteFile(bad, []byte("not a cert"), 0o600)
	if _, err := New(Config{BaseURL: srv.URL, CAFile: bad}); err == nil || !strings.Contains(err.Error(), "no PEM certificates") {
		t.Errorf("bad CA file: %v", err)
	}
}
