package sim_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

func TestControlEndpoints(t *testing.T) {
	h := newHarness(t)
	post := func(op, body string) response {
		return h.do("POST", "/_sim/"+op, "", body)
	}
	mustStatus(t, post("delimiter", `{"delimiter":"-"}`), 200)
	mustStatus(t, post("ethical_wall", `{"enabled":false}`), 200)
	mustStatus(t, post("ethical_wall", `{}`), 400)
	var m struct {
		ServiceID string `json:"service_id"`
	}
	post("matters", `{"client_id":"C9","matter_id":"77","v1":true}`).json(t, &m)
	if mi := h.matter(m.ServiceID); !mi.V1 || mi.StoredName != "C9-77" {
		t.Fatalf("%+v", mi)
	}
	if res := h.deleteMatters(pair{"C9", "77"}, pair{sim.LinkedClientID, sim.LinkedMatterID}); len(res.Deleted) != 2 {
		t.Fatalf("delimiter/ethical wall via control: %+v", res)
	}
	var p struct {
		ID string `json:"id"`
	}
	post("projects", `{"name":"Control Project","failed_folders":1,"failed_files":2}`).json(t, &p)
	var f struct {
		FileIDs []string `json:"file_ids"`
	}
	post("files", `{"project_id":"`+p.ID+`","files":[{"name":"a.pdf","status":"processing","ready_in_seconds":60},{"name":"b.pdf","status":"UNRECOVERABLE_FAILURE"}]}`).json(t, &f)
	if len(f.FileIDs) != 2 {
		t.Fatal(f)
	}
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_project/"+p.ID, h.admin(), nil), 409)
	mustStatus(t, post("advance", `{"seconds":60}`), 200)
	if d := h.getFiles(f.FileIDs...); d[0].ProcessingStatus != "ready_to_query" || d[1].ProcessingStatus != "unrecoverable_failure" {
		t.Fatalf("%+v", d)
	}
	if !h.sim.Now().Equal(pinned.Add(time.Minute)) {
		t.Fatal(h.sim.Now())
	}
	mustStatus(t, post("reset", ``), 200)
	for _, x := range h.sim.Projects() {
		if x.ID == p.ID {
			t.Fatal("reset kept an added project")
		}
	}
	mustStatus(t, post("nonsense", `{}`), 404)

	off := newHarness(t, func(o *sim.Options) { o.Control = false })
	mustStatus(t, off.do("POST", "/_sim/reset", "", `{}`), 404)
	mustStatus(t, off.do("POST", "/_sim/share", "", `{"project_id":"`+p.ID+`","email":"x@y","level":"READ"}`), 404)
	mustStatus(t, off.do("POST", "/_sim/audit_trickle", "", `{"per_minute":5}`), 404)
}

func TestClientKeptAfterDelete(t *testing.T) {
	h := newHarness(t)
	h.addMatter(sim.MatterSpec{ClientID: "KEEP", MatterID: "1"})
	h.deleteMatters(pair{"KEEP", "1"})
	// Upserting another matter of the client creates only the matter; the
	// v1 listing shows the deleted one with deleted_at.
	if res := h.upsert(pair{"KEEP", "2"}); len(res.Created) != 1 {
		t.Fatal(res)
	}
	var list []struct {
		Name      string  `json:"name"`
		DeletedAt *string `json:"deleted_at"`
	}
	h.get("/api/v1/client_matters").json(t, &list)
	found := 0
	for _, m := range list {
		if m.Name == "KEEP.1" && m.DeletedAt != nil || m.Name == "KEEP.2" && m.DeletedAt == nil {
			found++
		}
	}
	if found != 2 {
		t.Fatalf("listing lacks KEEP matters")
	}
}

func runSim(t *testing.T, args ...string) (lines map[string]string, tokens map[string]string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := sim.Run(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), pw, io.Discard)
		pw.Close()
		done <- code
	}()
	lines, tokens = map[string]string{}, map[string]string{}
	sc := bufio.NewScanner(pr)
	for len(tokens) < 4 && sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 4)
		if f[0] == "token" {
			tokens[f[1]] = f[2]
			lines["perms:"+f[1]] = f[3]
		} else {
			lines[f[0]] = f[1]
		}
	}
	go io.Copy(io.Discard, pr)
	return lines, tokens, func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("exit code %d", code)
			}
		case <-time.After(5 * time.Second):
			t.Error("Run did not stop")
		}
	}
}

func TestRunCommand(t *testing.T) {
	lines, tokens, stop := runSim(t, "--seed", "7", "--control")
	defer stop()
	if !strings.HasPrefix(lines["base_url"], "http://127.0.0.1:") || len(tokens) != 4 {
		t.Fatalf("%v %v", lines, tokens)
	}
	if lines["perms:vault-readonly"] != "Vault API,View workspace projects,Vault sharing (view only)" {
		t.Fatal(lines["perms:vault-readonly"])
	}
	if tokens["admin"] != sim.New(sim.Options{Seed: 7}).Token("admin") {
		t.Fatal("token values must derive from the seed")
	}
	req, _ := http.NewRequest("GET", lines["base_url"]+"/api/whoami", nil)
	req.Header.Set("Authorization", "Bearer "+tokens["no-audit"])
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatal(err, res)
	}
	res.Body.Close()
	res, err = http.Post(lines["base_url"]+"/_sim/advance", "application/json", strings.NewReader(`{"seconds":1}`))
	if err != nil || res.StatusCode != 200 {
		t.Fatal(err, res)
	}
	res.Body.Close()
}

func TestRunTLS(t *testing.T) {
	lines, tokens, stop := runSim(t, "--tls")
	defer stop()
	pem, err := os.ReadFile(lines["ca_file"])
	if err != nil || !strings.HasPrefix(lines["base_url"], "https://") {
		t.Fatal(lines, err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	req, _ := http.NewRequest("GET", lines["base_url"]+"/api/whoami", nil)
	req.Header.Set("Authorization", "Bearer "+tokens["admin"])
	res, err := c.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatal(err, res)
	}
	res.Body.Close()
	// Control is off unless --control.
	res, err = c.Post(lines["base_url"]+"/_sim/reset", "application/json", nil)
	if err != nil || res.StatusCode != 404 {
		t.Fatal(err, res)
	}
	res.Body.Close()
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{"--scale", "huge"}, {"--bogus"}, {"extra"}} {
		if code := sim.Run(context.Background(), args, io.Discard, io.Discard); code != 2 {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}

// TestConcurrentUse exercises the lock under -race: readers, writers, the
// control methods and the clock at once.
func TestConcurrentUse(t *testing.T) {
	h := newHarness(t)
	pid := h.projectByName("Bellhaven Shipping — Share Purchase").ID
	done := make(chan struct{})
	for i := 0; i < 6; i++ {
		go func(i int) {
			defer func() { done <- struct{}{} }()
			for j := 0; j < 15; j++ {
				switch (i + j) % 6 {
				case 0:
					h.get("/api/v1/vault/workspace/recycle_bin")
				case 1:
					h.do("DELETE", "/api/v2/matters", h.admin(), body(pair{"10000", "x"}))
				case 2:
					h.postUpload(pid, "keep", upFile{"c.pdf", 100})
				case 3:
					h.sim.Advance(time.Second)
				case 4:
					h.get("/api/v1/vault/projects/" + pid + "/files")
				case 5:
					h.sim.SetDelimiter("-")
				}
			}
		}(i)
	}
	for i := 0; i < 6; i++ {
		<-done
	}
}
