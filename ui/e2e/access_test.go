package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingProxy forwards to the simulator process and counts the vault
// reads a crawl makes. When holdAt > 0, the holdAt-th project-users
// request is never forwarded nor answered: held is closed, and the test
// kills the client there, so exactly holdAt-1 projects were read.
type countingProxy struct {
	base         string
	users, lists atomic.Int64
	all          atomic.Int64
	held         chan struct{}
}

func newCountingProxy(t *testing.T, simBase string, holdAt int64) *countingProxy {
	t.Helper()
	target, err := url.Parse(simBase)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	p := &countingProxy{held: make(chan struct{})}
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.all.Add(1)
		switch {
		case strings.HasSuffix(r.URL.Path, "/users"):
			if n := p.users.Add(1); holdAt > 0 && n >= holdAt {
				once.Do(func() { close(p.held) })
				<-r.Context().Done()
				return
			}
		case strings.HasSuffix(r.URL.Path, "/workspace/projects"):
			p.lists.Add(1)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.base = srv.URL
	return p
}

// simGet reads a simulator endpoint directly (not through a proxy): the
// test's own view of the truth.
func simGet(t *testing.T, base, token, path string, v any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// simAccess reads every project's users from the simulator: project id ->
// lower-cased email -> access level; and each project's updated time.
func simAccess(t *testing.T, base, token string) (map[string]map[string]string, map[string]string) {
	t.Helper()
	grants, updated := map[string]map[string]string{}, map[string]string{}
	for page := 1; ; page++ {
		var lp struct {
			Response struct {
				Content struct {
					Projects []struct {
						ID               string `json:"id"`
						ProjectUpdatedAt string `json:"project_updated_at"`
					} `json:"projects"`
				} `json:"content"`
			} `json:"response"`
		}
		simGet(t, base, token, fmt.Sprintf("/api/v1/vault/workspace/projects?page=%d&per_page=100", page), &lp)
		if len(lp.Response.Content.Projects) == 0 {
			break
		}
		for _, p := range lp.Response.Content.Projects {
			updated[p.ID] = p.ProjectUpdatedAt
			var u struct {
				Data struct {
					Users []struct{ Email, Access_level string }
				}
			}
			simGet(t, base, token, "/api/v1/vault/projects/"+p.ID+"/users", &u)
			grants[p.ID] = map[string]string{}
			for _, x := range u.Data.Users {
				grants[p.ID][strings.ToLower(x.Email)] = x.Access_level
			}
		}
	}
	return grants, updated
}

// TestAccessCrawlKilledResumesAndDiffs is issue 22's access review through
// the built binary against `vaultdeck sim --scale large` (rate limit lifted
// on both sides, --max-rate above 10 lifting the client's limit for a loopback simulator
// only): the crawl is killed with SIGKILL while its 60th project read is in
// flight; the restart reads only the 261 others; a day later (the
// simulator's clock moved across midnight, where it makes its sharing
// changes) the crawl reads only the projects whose project_updated_at
// moved, and `access diff` lists exactly what the simulator changed;
// `access user` answers with no request at all.
func TestAccessCrawlKilledResumesAndDiffs(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--scale", "large", "--no-rate-limit", "--control")
	tok := sp.tokens["admin"]
	env := []string{"VAULTDECK_TOKEN=" + tok, "VAULTDECK_HOME=" + t.TempDir()}
	crawl := []string{"--max-rate", "100000", "access", "crawl"}

	kp := newCountingProxy(t, sp.base, 60)
	cmd := exec.Command(bin, append(crawl, "--base-url", kp.base)...)
	cmd.Env = childEnv(t, nil, env...)
	var killedErr bytes.Buffer
	cmd.Stderr = &killedErr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-kp.held:
	case <-time.After(2 * time.Minute): // a bound on a hang, not a timing assumption
		_ = cmd.Process.Kill()
		t.Fatalf("the 60th project read never arrived:\n%s", killedErr.String())
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no clean-up runs
		t.Fatal(err)
	}
	_ = cmd.Wait()

	var snaps []struct {
		ID                                int64
		Projects, Read, Pending, Requests int
		Finished_at                       string
	}
	out, stderr, code := vd(t, bin, env, "", "access", "snapshots", "--json")
	if err := json.Unmarshal([]byte(out), &snaps); err != nil || code != 0 || len(snaps) != 1 {
		t.Fatalf("snapshots after the kill: %d %v %q %s", code, err, out, stderr)
	}
	if s := snaps[0]; s.Finished_at != "" || s.Read != 59 || s.Projects != 320 || s.Pending != 261 {
		t.Fatalf("after kill -9: %+v, want unfinished, 59 of 320 read", s)
	}

	rp := newCountingProxy(t, sp.base, 0)
	out, stderr, code = vd(t, bin, env, "", append(crawl, "--base-url", rp.base)...)
	if code != 0 || !strings.Contains(out, "snapshot 1: 320 projects (320 read") {
		t.Fatalf("resumed crawl: exit %d %q\n%s", code, out, stderr)
	}
	if u, l := rp.users.Load(), rp.lists.Load(); u != 261 || l != 4 {
		t.Fatalf("the resumed crawl read %d projects and %d listing pages; want 261 (none of the 59 already read) and 4", u, l)
	}
	if !strings.Contains(stderr, "59/320 projects, read 0/261 this run") {
		t.Errorf("the resumed crawl's first progress line does not say where it resumed:\n%s", stderr)
	}

	// The next day: the simulator makes its sharing changes at midnight.
	before, updBefore := simAccess(t, sp.base, tok)
	resp, err := http.Post(sp.base+"/_sim/advance", "application/json", strings.NewReader(`{"seconds": 86400}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("advance: %v %v", resp, err)
	}
	resp.Body.Close()
	after, updAfter := simAccess(t, sp.base, tok)
	moved := 0
	for id, u := range updAfter {
		if updBefore[id] != u {
			moved++
		}
	}
	var want []string
	for id, ga := range after {
		for e, lvl := range ga {
			switch old, ok := before[id][e]; {
			case !ok:
				want = append(want, "gained "+id+" "+e+" -> "+lvl)
			case old != lvl:
				want = append(want, "changed "+id+" "+e+" "+old+" -> "+lvl)
			}
		}
		for e, lvl := range before[id] {
			if _, ok := ga[e]; !ok {
				want = append(want, "lost "+id+" "+e+" "+lvl+" -> ")
			}
		}
	}
	if len(updAfter) != 320 || moved == 0 || len(want) == 0 {
		t.Fatalf("the simulator changed nothing at midnight (moved %d)", moved)
	}

	dp := newCountingProxy(t, sp.base, 0)
	out, stderr, code = vd(t, bin, env, "", append(crawl, "--base-url", dp.base)...)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("snapshot 2: 320 projects (%d read, %d unchanged", moved, 320-moved)) {
		t.Fatalf("daily crawl: exit %d %q\n%s", code, out, stderr)
	}
	if u, l := dp.users.Load(), dp.lists.Load(); u != int64(moved) || l != 4 {
		t.Fatalf("the daily crawl read %d projects and %d listing pages; want the %d whose project_updated_at moved, and 4", u, l, moved)
	}

	var changes []struct{ Change, Email, Project_id, From_access_level, To_access_level string }
	qp := newCountingProxy(t, sp.base, 0)
	q := []string{"--base-url", qp.base}
	out, stderr, code = vd(t, bin, env, "", append([]string{"access", "diff", "--json"}, q...)...)
	if err := json.Unmarshal([]byte(out), &changes); err != nil || code != 0 {
		t.Fatalf("diff: %d %v %q %s", code, err, out, stderr)
	}
	var got []string
	for _, c := range changes {
		switch c.Change {
		case "gained":
			got = append(got, "gained "+c.Project_id+" "+strings.ToLower(c.Email)+" -> "+c.To_access_level)
		case "changed":
			got = append(got, "changed "+c.Project_id+" "+strings.ToLower(c.Email)+" "+c.From_access_level+" -> "+c.To_access_level)
		case "lost":
			got = append(got, "lost "+c.Project_id+" "+strings.ToLower(c.Email)+" "+c.From_access_level+" -> ")
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("access diff:\n got %q\nwant %q (read from the simulator)", got, want)
	}

	// What one person can reach: from the snapshot, not one request.
	var someone string
	for e := range after[changes[0].Project_id] {
		someone = e
		break
	}
	out, stderr, code = vd(t, bin, env, "", append([]string{"access", "user", someone}, q...)...)
	reach := 0
	for _, g := range after {
		if _, ok := g[someone]; ok {
			reach++
		}
	}
	if code != 0 || strings.Count(out, "\n") != reach+1 {
		t.Errorf("access user %s: exit %d, %d lines, want %d projects\n%s%s", someone, code, strings.Count(out, "\n"), reach, out, stderr)
	}
	if n := qp.all.Load(); n != 0 {
		t.Errorf("access diff and access user made %d requests; they must answer from the snapshot", n)
	}
}
