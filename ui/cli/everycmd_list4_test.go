package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

func (w *walkWorld) accounts() {
	s, shapers := w.s, w.shapers
	// ---- login, logout, profiles, config (a temp home, a memory keyring) ----
	w.ad("", "profiles")
	w.ad("", "profiles", "--json")
	w.ad("", "whoami")
	w.ad("", "config", "get")
	w.ad("", "logout")
	w.ad("", "login", "--base-url", w.st.URL, "--insecure-storage")
	w.ad("not-the-token\n", "login", "--base-url", w.st.URL, "--insecure-storage")
	w.ad("", "login", s.Token("admin"))
	w.ad(s.Token("admin")+"\n", "login", "--base-url", w.st.URL, "--insecure-storage")
	w.ad("", "profiles")
	w.ad("", "whoami")
	w.ad(s.Token("admin")+"\n", "login", "--profile", "work", "--base-url", w.st.URL)
	w.ad(s.Token("admin")+"\n", "login", "--profile", "ro", "--base-url", w.st.URL, "--read-only", "--insecure-storage")
	w.ad(s.Token("admin")+"\n", "login", "--profile", "bad url", "--base-url", w.st.URL)
	w.ad(s.Token("admin")+"\n", "login", "--profile", "x", "--base-url", "http://example.com")
	w.ad(s.Token("admin")+"\n", "login", "--profile", "y", "--base-url", w.url401)
	for _, f := range [][]string{nil, {"--json"}, {"--jsonl"}, {"--csv"}, {"--jq", ".[] | .name"}, {"--jq", "."}, {"--jq", "length"}, {"--jq", "sort_by(.name) | .[0]"}, {"--template", "{{range .}}{{.name}}\n{{end}}"}, {"--json", "--csv"}} {
		w.ad("", append([]string{"profiles"}, f...)...)
	}
	w.ad("", "profiles", "--check")
	w.ad("", "profiles", "--check", "--json")
	w.ad("", "profiles", "--set-default", "work")
	w.ad("", "profiles", "--set-default", "nosuch")
	w.ad("", "profiles", "extra")
	w.ad("", "profiles")
	w.ad("", "whoami")
	w.ad("", "--profile", "ro", "whoami", "--json")
	w.ad("", "--profile", "default", "projects", "--name", "golden")
	w.ad("", "--profile", "nosuch", "whoami")
	w.ad("", "config", "get")
	w.ad("", "config", "get", "--json")
	w.ad("", "config", "get", "--jq", ".")
	w.ad("", "config", "get", "theme")
	w.ad("", "config", "set", "theme", "dark")
	w.ad("", "config", "set", "theme", "sepia")
	w.ad("", "config", "set", "stuck-after", "-1s")
	w.ad("", "config", "set", "stuck-after", "2m")
	w.ad("", "config", "set", "timeout", "45s")
	w.ad("", "config", "set", "max-rate", "50%")
	w.ad("", "config", "set", "read-only", "maybe")
	w.ad("", "config", "set", "bogus", "x")
	w.ad("", "config", "set", "theme")
	w.ad("", "config", "get", "bogus")
	w.ad("", "config", "get")
	w.ad("", "config", "get", "--json")
	w.ad("", "config", "get", "--csv")
	w.ad("", "--profile", "ro", "config", "get")
	w.ad("", "--profile", "ro", "config", "set", "read-only", "false")
	w.ad("", "--profile", "ro", "config", "get", "read-only")
	for _, g := range shapers {
		w.ad("", append([]string{"config", "get"}, g...)...)
		w.ad("", append([]string{"config", "get", "theme"}, g...)...)
		w.ad("", append([]string{"profiles"}, g...)...)
	}
	w.ad("", "config", "unset", "theme")
	w.ad("", "config", "unset")
	w.ad("", "config", "unset", "bogus")
	w.ad("", "config", "get", "theme")
	w.ad("", "config", "list")
	w.ad("", "__complete", "--profile", "")
	w.ad("", "completion", "bash")
	w.runIn(w.acctTokEnv, "", 200, "whoami")
	w.ad("", "logout", "--profile", "ro")
	w.ad("", "logout", "--profile", "ro")
	w.ad("", "logout", "--profile", "work", "--forget")
	w.ad("", "logout", "--profile", "nosuch")
	w.ad("", "logout", "extra")
	w.ad("", "profiles")
	w.ad("", "logout", "--forget")
	w.ad("", "profiles")
	w.ad("", "profiles", "--json")

	// ---- sim, demo, serve: help and usage errors only ----
	for _, a := range [][]string{
		{"sim", "--help"}, {"sim", "--bogus"}, {"sim", "extra"}, {"sim", "--scale", "huge"},
		{"demo", "--help"}, {"demo", "extra"}, {"demo", "--bogus"}, {"demo", "--scale", "huge"}, {"demo", "--theme", "sepia"}, {"demo", "--version"},
		{"serve", "--help"}, {"serve"}, {"serve", "--bogus"}, {"serve", "extra"}, {"serve", "--listen", "0.0.0.0:2222"},
		{"serve", "--max-startups", "x"},
	} {
		w.vd(a...)
	}
}

func (w *walkWorld) pagedAndFailing() {
	t, root, pid, gp, fids, otherEmail, up, upPid, mf, none := w.t, w.root, w.pid, w.gp, w.fids, w.otherEmail, w.up, w.upPid, w.mf, w.none
	// ---- listings of several pages (a second simulator: 350 in the bin,
	// 1,200 audit entries, 230 more projects, a project of 260 files), with
	// and without the client's own pacing ----
	pg := w.startSim(sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow, RecycleBin: 350, AuditEntries: 1200})
	for i := 0; i < 230; i++ {
		if _, err := pg.Sim.AddProject(sim.ProjectSpec{Name: fmt.Sprintf("Paged project %03d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	bigPid, _ := pg.Sim.AddProject(sim.ProjectSpec{Name: "Many files"})
	var many []sim.FileSpec
	for i := 0; i < 260; i++ {
		st := "ready_to_query"
		if i%7 == 0 {
			st = "processing"
		}
		many = append(many, sim.FileSpec{Name: fmt.Sprintf("doc-%03d.pdf", i), Status: st})
	}
	manyIDs, err := pg.Sim.AddFiles(bigPid, many)
	if err != nil {
		t.Fatal(err)
	}
	home4 := filepath.Join(root, "phome")
	os.MkdirAll(home4, 0o700)
	pagedEnv := walkEnv{name: "paged", vars: map[string]string{"VAULTDECK_TOKEN": pg.Sim.Token("admin"), "VAULTDECK_BASE_URL": pg.URL, "VAULTDECK_HOME": home4}, home: home4, sim: pg.Sim}
	// the paced runs keep a home of their own, so their crawl reads every project again
	home5 := filepath.Join(root, "qhome")
	os.MkdirAll(home5, 0o700)
	pacedEnv := walkEnv{name: "paged+paced", vars: map[string]string{"VAULTDECK_TOKEN": pg.Sim.Token("admin"), "VAULTDECK_BASE_URL": pg.URL, "VAULTDECK_HOME": home5}, home: home5, sim: pg.Sim, paced: true}
	for _, k := range []walkEnv{pagedEnv, pacedEnv} {
		for _, f := range [][]string{nil, {"--json"}, {"--jsonl"}, {"--csv"}, {"--jq", ".[] | .name"}, {"--jq", "length"}, {"--jq", "sort_by(.name) | .[0].id"}, {"--template", "{{len .}}"}} {
			w.runIn(k, "", 4000, append([]string{"projects"}, f...)...)
		}
		w.runIn(k, "", 4000, "projects", "--name", "paged project 1")
		for _, f := range [][]string{nil, {"--json"}, {"--jsonl"}, {"--csv"}, {"--jq", ".[] | .vault_project.name"}, {"--jq", "map(select(.vault_project.files_count > 1)) | length"}, {"--template", "{{len .}}"}} {
			w.runIn(k, "", 4000, append([]string{"recycle-bin"}, f...)...)
		}
		w.runIn(k, "", 4000, "recycle-bin", "--purging-within", "3d")
		w.runIn(k, "", 4000, "recycle-bin", "--check")
		w.runIn(k, "", 4000, "recycle-bin", "--name", "a", "--json")
		for _, f := range [][]string{nil, {"--json"}, {"--jsonl"}, {"--csv"}, {"--jq", ".[] | .name"}, {"--jq", "length"}, {"--jq", "sort_by(.name) | .[0].id"}, {"--template", "{{len .}}"}} {
			w.runIn(k, "", 4000, append([]string{"files", bigPid}, f...)...)
		}
		w.runIn(k, "", 4000, "files", bigPid, "--status", "processing")
		w.runIn(k, "", 4000, "files", bigPid, "--name", "doc-1", "--csv")
		w.runIn(k, "", 4000, "status", strings.Join(manyIDs[:150], ","))
		w.runIn(k, "", 4000, "status", strings.Join(manyIDs[:150], ","), "--jsonl")
		w.runIn(k, "", 4000, "users", bigPid, "--json")
		for _, f := range [][]string{nil, {"--jsonl"}, {"--csv"}, {"--jq", ".[] | .type"}} {
			w.runIn(k, "", 4000, append([]string{"audit", "--limit", "0"}, f...)...)
		}
		w.runIn(k, "", 4000, "audit", "--limit", "250", "--oldest", "--json")
		w.runIn(k, "", 4000, "audit", "--limit", "150", "--since", "2025-05-20", "--jq", ".[] | .id")
		w.runIn(k, "", 4000, "audit", "--limit", "10", "--type", "auth:login", "--csv")
		w.runIn(k, "", 4000, "audit", "sync")
		w.runIn(k, "", 4000, "audit", "--limit", "0", "--since", "2025-05-01", "--jq", ".[] | .id")
		w.runIn(k, "", 4000, "audit", "stats", "--since", "2025-05-01", "--until", "2025-06-03")
		w.runIn(k, "", 4000, "audit", "follow", "--once", "--out", filepath.Join(root, k.name+".jsonl"))
		w.runIn(k, "", 4000, "access", "crawl")
		w.runIn(k, "", 4000, "access", "snapshots", "--json")
		w.runIn(k, "", 4000, "access", "people", "--csv")
		w.runIn(k, "", 4000, "whoami")
	}

	// ---- no store and no journal in the Env ----
	noStoreEnv := w.tokEnv
	noStoreEnv.name, noStoreEnv.nostore = "nostore", true
	for _, a := range [][]string{{"matters", "receipts"}, {"matters", "receipt", "1"}, {"--json", "matters", "receipt", "1"},
		{"matters", "delete", mf, "--dry-run"}, {"--json", "matters", "delete", mf, "--dry-run"}, {"matters", "delete", mf, "--yes"},
		{"matters", "delete", none, "--yes"}, {"matters", "restore", "--receipt", "1", "--yes"}, {"matters", "restore", "--receipt", "1", "--dry-run"},
		{"--jq", ".x", "matters", "receipt", "1", "--export", "csv"}, {"uploads"}, {"uploads", "1"}, {"upload", upPid, filepath.Join(up, "a.pdf")},
		{"upload", "--resume"}, {"status", "--journal"}, {"status", fids[0]}, {"access", "crawl"}, {"access", "people"}, {"access", "snapshots"},
		{"person", otherEmail}, {"person", otherEmail, "--offline"}, {"audit", "sync"}, {"audit", "stats"}, {"audit", "--limit", "2"},
		{"audit", "follow", "--once", "--checkpoint", "x"}, {"audit", "follow", "--once", "--start", "latest"}, {"config", "get"}, {"view"},
		{"projects", "--name", "golden"}, {"__complete", "--profile", ""}} {
		w.runIn(noStoreEnv, "", 200, a...)
	}

	// ---- no token, bad base URLs, a server that says 401 or 500 ----
	for _, a := range [][]string{{"projects"}, {"whoami"}, {"recycle-bin", "--json"}, {"audit", "--limit", "2"}, {"status", fids[0]},
		{"files", gp}, {"users", pid}, {"matters", "delete", mf, "--dry-run"}, {"access", "crawl"}, {"person", otherEmail}, {"recycle-bin", "--check"}} {
		w.runIn(w.noTok, "", 200, a...)
	}
	for _, u := range []string{"ftp://example.com", "http://example.com", "http://127.0.0.1:1", "::bad", "https://", "http://127.0.0.1:1/path?q=1"} {
		w.vd("--base-url", u, "projects")
		w.vd("--base-url", u, "whoami", "--json")
	}
	for _, k := range []walkEnv{w.env401, w.env500} {
		for _, a := range [][]string{{"projects"}, {"projects", "--json"}, {"projects", "--csv"}, {"whoami"}, {"whoami", "--json"}, {"recycle-bin"},
			{"recycle-bin", "--json"}, {"recycle-bin", "--check"}, {"audit", "--limit", "2"}, {"audit", "sync"}, {"status", fids[0]},
			{"files", gp}, {"files", gp, "--jsonl"}, {"users", pid}, {"matters", "delete", mf, "--dry-run"}, {"matters", "delete", mf, "--yes"},
			{"access", "crawl"}, {"person", otherEmail}, {"upload", upPid, filepath.Join(up, "a.pdf")}, {"audit", "follow", "--once"}, {"audit", "stats"}} {
			w.runIn(k, "", 200, a...)
		}
	}
}
