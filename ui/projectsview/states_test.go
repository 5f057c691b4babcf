package projectsview

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// A failed load is not an empty workspace: the error is on the page.
func TestFailedLoadIsNotEmpty(t *testing.T) {
	f := &pagetest.Fake{ProjectsFn: func(context.Context, api.ProjectQuery) (*api.ProjectPage, error) {
		return nil, errors.New("dial tcp 127.0.0.1:9: connection refused")
	}}
	p := openList(t, f, nil)
	if v := p.View(); strings.Contains(v, "0 of 0 loaded") || strings.Contains(v, "nothing to show") ||
		!strings.Contains(v, "connection refused") || !strings.Contains(v, "r retries") {
		t.Fatalf("failed load:\n%s", v)
	}
}
