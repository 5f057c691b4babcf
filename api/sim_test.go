package api_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

var simEpoch = time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)

func fixedClock() time.Time { return simEpoch }

// newSim starts the simulator on simEpoch with a client of token on its
// clock (sleeping advances it, so rate-limit windows pass instantly),
// under limits as given.
func newSim(t testing.TB, opts sim.Options, token string, limits api.Limits) (*sim.Server, *api.Client) {
	t.Helper()
	if opts.Now == nil {
		opts.Now = fixedClock
	}
	opts.Control = true
	e := simtest.Start(t, simtest.Options{Sim: opts, Token: token, SimClock: true, DefaultLimits: true, Client: api.Config{Limits: limits}})
	return e.Sim, e.Client
}

// waited is how far the simulator's clock moved from simEpoch: the
// client's waits, on simtest's clock.
func waited(s *sim.Server) time.Duration { return s.Now().Sub(simEpoch) }

func TestSimEveryEndpoint(t *testing.T) {
	s, c := newSim(t, sim.Options{Seed: 1}, "admin", api.Limits{})
	ctx := context.Background()
	w, err := c.WhoAmI(ctx)
	if err != nil || w.TokenName != "admin" {
		t.Fatalf("whoami %+v %v", w, err)
	}
	projects, _, err := c.Projects(api.ProjectQuery{}).Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(projects) == 0 {
		t.Fatal("no projects")
	}
	pid := projects[len(projects)-1].ID
	var fileIDs []string
	if _, err := c.ProjectFiles(pid, api.FileQuery{Limit: 7}).Each(ctx, func(f *api.ProjectFile, _ api.RawItem) error {
		fileIDs = append(fileIDs, f.ID)
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	if len(fileIDs) == 0 {
		t.Fatal("no files")
	}
	recs, err := api.DetailsOf(c.GetFiles(ctx, append(fileIDs, "00000000-0000-4000-8000-000000000000")))
	if err != nil || len(recs) != len(fileIDs)+1 || !recs[len(recs)-1].Failed() || recs[0].Failed() {
		t.Fatalf("get_files: %d %v", len(recs), err)
	}
	if _, err := api.UsersOf(c.ProjectUsers(pid).Collect(ctx)); err != nil {
		t.Fatal(err)
	}
	rb, err := api.BinOf(c.RecycleBin(api.RecycleBinQuery{}).Collect(ctx))
	if err != nil || int(rb.Total) != len(rb.Items) || len(rb.Items) == 0 {
		t.Fatalf("recycle %v", err)
	}
	n := 0
	if _, err := c.Audit(api.AuditQuery{}).Raw(ctx, func(api.RawItem) error { n++; return nil }, nil); err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Errorf("audit entries %d", n)
	}
	up, err := c.Upload(ctx, pid, []api.UploadFile{{Name: "new.txt", Size: 5, Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("hello")), nil
	}}}, api.DuplicateKeep)
	if err != nil || len(up.FileIDs) != 1 {
		t.Fatalf("upload %+v %v", up, err)
	}
	st, err := api.DetailsOf(c.GetFiles(ctx, up.FileIDs))
	if err != nil || !st[0].ProcessingStatus.Is(api.StatusProcessing) {
		t.Fatalf("new file status %+v %v", st, err)
	}
	pairs := []api.MatterPair{{ClientID: "nobody", MatterID: "nothing"}}
	md, err := c.DeleteMatters(ctx, pairs)
	if err != nil || len(md.AlreadyAbsent) != 1 {
		t.Fatalf("matters %+v %v", md, err)
	}
	if _, err := c.UpsertMatters(ctx, pairs); err != nil {
		t.Fatal(err)
	}
	_, err = c.DeleteMatters(ctx, []api.MatterPair{})
	if err != nil {
		t.Fatal(err)
	}
	dp, err := c.DeleteProject(ctx, pid)
	if err != nil {
		t.Fatalf("delete %v", err)
	}
	t.Logf("delete outcome %v, vault budget %+v", dp.Outcome(), c.Budget(api.CategoryVault))
	_ = s
}

func TestSimPermissions(t *testing.T) {
	ctx := context.Background()
	_, ro := newSim(t, sim.Options{Seed: 1}, "no-audit", api.Limits{})
	if _, err := ro.AuditEarliest(ctx, ""); !errors.Is(err, api.KindForbidden) || !strings.Contains(err.Error(), "Territory admin or Organization admin") {
		t.Errorf("audit: %v", err)
	}
	_, nm := newSim(t, sim.Options{Seed: 1}, "no-matters", api.Limits{})
	nm.WhoAmI(ctx)
	_, err := nm.DeleteMatters(ctx, []api.MatterPair{{ClientID: "a", MatterID: "b"}})
	if !errors.Is(err, api.KindUnauthorized) || !strings.Contains(err.Error(), "Client matters admin (write:client_matters)") {
		t.Errorf("matters: %v", err)
	}
	_, vr := newSim(t, sim.Options{Seed: 1}, "vault-readonly", api.Limits{})
	_, err = vr.Upload(ctx, "x", []api.UploadFile{{Name: "a", Size: 1, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("a")), nil }}}, api.DuplicateSkip)
	if !errors.Is(err, api.KindForbidden) {
		t.Errorf("upload: %v", err)
	}
}

// TestSimRateLimitNo429 drives 25 vault calls through the client with the
// simulator enforcing 10/min: the client's budget must pace them so the
// simulator never answers 429.
func TestSimRateLimitNo429(t *testing.T) {
	var got429 atomic.Int32
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, Now: fixedClock}, SimClock: true, DefaultLimits: true,
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				if rec.Code == 429 {
					got429.Add(1)
				}
				for k, v := range rec.Header() {
					w.Header()[k] = v
				}
				w.WriteHeader(rec.Code)
				w.Write(rec.Body.Bytes())
			})
		}})
	s, c := e.Sim, e.Client
	for i := range 25 {
		if _, _, err := c.RecycleBin(api.RecycleBinQuery{}).Collect(context.Background()); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if got429.Load() != 0 {
		t.Errorf("simulator answered 429 %d times", got429.Load())
	}
	if waited(s) < 2*time.Minute {
		t.Errorf("paced over only %v", waited(s))
	}
	// Without client-side limits, the sim's 429 + Retry-After is honoured.
	got429.Store(0)
	c2 := e.NewClient(t, "admin", api.Config{Clock: e.Clock, Limits: api.Limits{Vault: -1}})
	for i := range 15 {
		if _, _, err := c2.RecycleBin(api.RecycleBinQuery{}).Collect(context.Background()); err != nil {
			t.Fatalf("unpaced call %d: %v", i, err)
		}
	}
	if got429.Load() == 0 {
		t.Error("expected the simulator to push back")
	}
}
