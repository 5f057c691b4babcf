package console

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

var (
	_ page.Cache = StoreCache{}
	_ page.Cache = StoreCache{}
)

func TestStoreCacheRoundTrip(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	c := StoreCache{Store: st, Profile: "p", Now: func() time.Time { return at }}
	c.Put(person.CacheProjects, []byte(`{"a":1}`))
	body, fetched, ok := c.Get(person.CacheProjects)
	if !ok || string(body) != `{"a":1}` || !fetched.Equal(at) {
		t.Fatalf("Get = %q %v %v", body, fetched, ok)
	}
	// Another profile never sees this profile's cache.
	if _, _, ok := (StoreCache{Store: st, Profile: "q"}).Get(person.CacheProjects); ok {
		t.Error("cache leaked across profiles")
	}
	c.Delete(person.CacheProjects)
	if _, _, ok := c.Get(person.CacheProjects); ok {
		t.Error("Delete left the entry")
	}
}

func TestNewModel(t *testing.T) {
	var out bytes.Buffer
	if _, err := NewModel(context.Background(), Options{}, &out); err == nil {
		t.Error("a console without a backend was built")
	}
	if _, err := NewModel(context.Background(), Options{Backend: &pagetest.Fake{}, Theme: "sepia"}, &out); err == nil ||
		!strings.Contains(err.Error(), "sepia") {
		t.Errorf("unknown theme: err = %v", err)
	}
	for _, name := range []string{"auto", "dark", "light", "high-contrast", "mono"} {
		if _, err := NewModel(context.Background(), Options{Backend: &pagetest.Fake{}, Theme: name}, &out); err != nil {
			t.Errorf("theme %s: %v", name, err)
		}
	}
}

func TestRoutesCoverTheCommandLine(t *testing.T) {
	names := map[string]bool{}
	for _, r := range Routes(0) {
		names[r.Name] = true
		if r.New == nil {
			t.Errorf("route %s has no constructor", r.Name)
		}
	}
	for _, want := range []string{"projects", "project", "bin", "files", "audit"} {
		if !names[want] {
			t.Errorf("route %s missing", want)
		}
	}
}
