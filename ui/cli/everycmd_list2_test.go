package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

func (w *walkWorld) uploadsAndAudit() {
	s, root, fids, ghost, adminEmail := w.s, w.root, w.fids, w.ghost, w.adminEmail
	// ---- upload, uploads ----
	up := filepath.Join(root, "up")
	for _, f := range []string{"a.pdf", "sub/b.docx", ".hidden.txt", "c.txt", "sub/deeper/d.md"} {
		os.MkdirAll(filepath.Dir(filepath.Join(up, f)), 0o755)
		os.WriteFile(filepath.Join(up, f), []byte("content of "+f), 0o644)
	}
	same := filepath.Join(root, "same")
	for _, f := range []string{"x/a.pdf", "y/a.pdf"} {
		os.MkdirAll(filepath.Dir(filepath.Join(same, f)), 0o755)
		os.WriteFile(filepath.Join(same, f), []byte("same "+f), 0o644)
	}
	upPid, _ := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	w.vd("uploads")
	w.vd("uploads", "--json")
	w.vd("uploads", "--csv")
	w.vd("upload", upPid, up, "--dry-run")
	w.vd("upload", upPid)
	w.vd("upload")
	w.vd("upload", upPid, up, "--mode", "merge")
	w.vd("upload", ghost, up)
	w.vd("upload", upPid, up, filepath.Join(root, "missing.pdf"), "--mode", "keep")
	w.vd("upload", upPid, filepath.Join(up, "a.pdf"))
	w.vd("upload", upPid, filepath.Join(up, "a.pdf"), "--json")
	w.vd("upload", upPid, filepath.Join(up, "a.pdf"), "--mode", "replace", "--json")
	w.vd("upload", upPid, filepath.Join(up, "c.txt"), "--mode", "keep", "--jsonl")
	w.vd("upload", upPid, filepath.Join(up, "c.txt"), "--mode", "keep", "--csv")
	w.vd("upload", upPid, filepath.Join(up, "c.txt"), "--mode", "keep", "--jq", ".uploaded")
	w.vd("upload", upPid, filepath.Join(up, "c.txt"), "--mode", "keep", "--template", "{{len .uploaded}}")
	w.vd("upload", upPid, same)
	w.vd("upload", upPid, same, "--same-names", "--mode", "keep")
	w.vd("upload", "--resume")
	w.vd("upload", "--resume", "--json")
	w.vd("upload", "--resume", upPid)
	w.formats(".state", ".", "{{range .}}{{.state}}\n{{end}}", "uploads")
	w.formats(".file_path", ".", "{{range .}}{{.file_path}}\n{{end}}", "uploads", "1")
	w.vd("uploads", "2")
	w.vd("uploads", "99")
	w.vd("uploads", "x")
	w.vd("uploads", "1", "2")
	w.vd("uploads", "undo", "1", "--dry-run")
	w.vd("uploads", "undo", "1", "--dry-run", "--json")
	w.vd("uploads", "undo", "1")
	w.vd("uploads", "undo", "x")
	w.vd("uploads", "undo", "99", "--yes")
	w.vd("uploads", "undo", "1", "--yes", "--tries", "1", "--retry-after", "1ms")
	w.vd("uploads", "undo", "1", "--yes", "--tries", "2", "--retry-after", "1ms", "--json")
	w.vd("uploads", "undo", "1", "--yes", "--tries", "2", "--retry-after", "1ms", "--csv")
	w.vd("uploads", "undo", "1", "--receipt")
	w.vd("uploads", "undo", "1", "--receipt", "--json")
	w.vd("uploads", "undo", "2", "--receipt")
	w.vd("uploads", "report", "1")
	w.vd("uploads", "report", "1", "--json")
	w.vd("uploads", "report", "1", "--csv")
	w.vd("uploads", "report", "x")
	w.vd("uploads", "report", "99")
	w.formats(".file_path", ".", "{{range .}}{{.file_path}}\n{{end}}", "status", "--journal")
	for _, g := range []string{"ready", "processing", "stuck", "failed", "missing", "bogus"} {
		w.vd("status", "--journal", "--group", g)
	}
	w.vd("status", "--journal", "--stuck-after", "1s")
	w.vd("status", "--journal", fids[0])
	w.runIn(w.tokEnv, "", 3, "status", "--watch", "--journal")
	w.runIn(w.tokEnv, "", 3, "status", "--watch", "--journal", "--json")

	// ---- audit ----
	w.formats(".type", ".", "{{range .}}{{.type}}\n{{end}}", "audit", "--limit", "5")
	for _, a := range [][]string{
		{"--limit", "3"}, {"--limit", "0", "--type", "auth:login"}, {"--limit", "2", "--oldest"}, {"--limit", "2", "--newest"},
		{"--limit", "5", "--user", adminEmail}, {"--limit", "5", "--user", "nobody@example.com"}, {"--limit", "5", "--ip", "203.0.113.9"},
		{"--limit", "5", "--grep", "login"}, {"--since", "2025-06-01", "--until", "2025-06-01T12:00:00Z", "--limit", "4"},
		{"--since", "2025-06-01", "--limit", "4", "--newest"}, {"--since", "bogus"}, {"--until", "bogus"}, {"--limit", "-1"},
		{"--limit", "x"}, {"--hide-own-reads", "--limit", "3"}, {"--oldest", "--newest"}, {"--since", "36h", "--limit", "3"},
		{"--type", "no:such", "--limit", "3", "--json"}, {"extra"},
	} {
		w.vd(append([]string{"audit"}, a...)...)
	}
	w.vd("audit", "stats")
	w.vd("audit", "sync")
	w.vd("audit", "sync")
	w.vd("audit", "sync", "--json")
	w.vd("audit", "sync", "extra")
	w.formats(".type", ".", "{{range .}}{{.type}}\n{{end}}", "audit", "--limit", "4", "--since", "2025-05-01")
	for _, a := range [][]string{
		{}, {"--since", "2025-05-01", "--until", "2025-06-03"}, {"--since", "2025-05-01", "--until", "2025-06-03", "--by", "day"},
		{"--since", "2025-06-01", "--until", "2025-06-03", "--by", "hour"}, {"--since", "2025-05-01", "--until", "2025-06-03", "--type", "auth:login"},
		{"--by", "week"}, {"--since", "bogus"}, {"--since", "2025-06-03", "--until", "2025-06-01"}, {"extra"},
	} {
		for _, f := range [][]string{nil, {"--json"}} {
			w.vd(append(append([]string{"audit", "stats"}, a...), f...)...)
		}
	}
	for _, f := range [][]string{{"--jsonl"}, {"--csv"}, {"--jq", ".top_users"}, {"--jq", "."}, {"--template", "{{.}}"}} {
		w.vd(append([]string{"audit", "stats", "--since", "2025-05-01", "--until", "2025-06-03"}, f...)...)
	}
	outFile := filepath.Join(root, "follow.jsonl")
	w.vd("audit", "follow", "--out", outFile, "--once")
	w.vd("audit", "follow", "--out", outFile, "--once")
	w.vd("audit", "follow", "--once", "--checkpoint", "siem", "--start", "latest")
	w.vd("audit", "follow", "--once", "--checkpoint", "siem")
	w.vd("audit", "follow", "--once", "--start", "latest")
	w.vd("audit", "follow", "--once", "--start", "bogus")
	w.vd("audit", "follow", "--once", "--out", outFile, "--checkpoint", "x")
	w.vd("audit", "follow", "--once", "--poll", "0s", "--start", "latest")
	w.vd("audit", "follow", "--once", "--json", "--start", "latest")
	w.vd("audit", "follow", "--once", "--csv", "--start", "latest")
	w.vd("audit", "follow", "--once", "--jq", ".type", "--start", "latest")
	w.vd("audit", "follow", "--once", "--no-mirror", "--start", "latest")
	w.vd("audit", "follow", "extra")
	w.runIn(w.tokEnv, "", 3, "audit", "follow", "--start", "latest", "--checkpoint", "bounded")
	w.up, w.same, w.upPid = up, same, upPid
}

func (w *walkWorld) viewAccessPerson() {
	s, t, pid, gp, ghost, adminEmail, otherEmail := w.s, w.t, w.pid, w.gp, w.ghost, w.adminEmail, w.otherEmail
	// ---- view ----
	w.vd("view")
	w.vd("view", "nosuch")
	os.WriteFile(filepath.Join(w.tokEnv.home, "views"), []byte("purging = recycle-bin --purging-within 30d\ngolden = projects --name golden\nfiles = files "+gp+"\n"), 0o600)
	w.vd("view")
	w.vd("view", "--json")
	w.vd("view", "golden")
	w.vd("view", "golden", "--json")
	w.vd("view", "golden", "--csv")
	w.vd("view", "files", "--jq", ".[] | .name")
	w.vd("view", "purging", "--template", "{{range .}}{{.vault_project.name}}\n{{end}}")
	w.vd("view", "golden", "--jsonl", "--jq", ".name")
	w.vd("view", "golden", "--jsonl", "--template", "{{.name}}")
	w.vd("view", "--csv")
	w.vd("view", "--jsonl")
	w.vd("view", "nosuch")
	w.vd("view", "a", "b")
	os.WriteFile(filepath.Join(w.tokEnv.home, "views"), []byte("broken = nosuch command\n"), 0o600)
	w.vd("view")
	w.vd("view", "broken")
	os.Remove(filepath.Join(w.tokEnv.home, "views"))

	// ---- access ----
	w.vd("access")
	w.vd("access", "nosuch")
	w.vd("access", "snapshots")
	w.vd("access", "people")
	w.vd("access", "diff")
	w.vd("--max-rate", "100000", "access", "crawl")
	// a workspace user who is not yet on gp, read from the sim's users listing
	{
		var o bytes.Buffer
		Main(context.Background(), []string{"users", pid, "--jq", ".[] | .email"}, Env{Stdout: &o, Stderr: io.Discard,
			Getenv: func(k string) string { return w.tokEnv.vars[k] }, Limits: api.Limits{Vault: -1}})
		var emails []string
		for _, l := range strings.Split(strings.TrimSpace(o.String()), "\n") {
			if l != "" && l != adminEmail {
				emails = append(emails, l)
			}
		}
		sort.Strings(emails)
		if len(emails) == 0 {
			t.Fatalf("no users of %s: %q", pid, o.String())
		}
		otherEmail = emails[0]
	}
	if err := s.Share(gp, otherEmail, "MANAGE"); err != nil {
		t.Fatal(err)
	}
	w.vd("--max-rate", "100000", "access", "crawl", "--json")
	w.vd("--max-rate", "100000", "access", "crawl", "--jsonl")
	w.vd("--max-rate", "100000", "access", "crawl", "--csv")
	w.vd("--max-rate", "100000", "access", "crawl", "--jq", ".projects")
	w.vd("access", "crawl", "extra")
	w.formats(".id|tostring", ".", "{{range .}}{{.id}}\n{{end}}", "access", "snapshots")
	w.formats(".email", ".", "{{range .}}{{.email}}\n{{end}}", "access", "people")
	w.vd("access", "people", "--snapshot", "1")
	w.vd("access", "people", "--snapshot", "99")
	w.vd("access", "people", "--snapshot", "x")
	w.formats(".project_name", ".", "{{range .}}{{.}}\n{{end}}", "access", "user", otherEmail)
	w.vd("access", "user", otherEmail, "--snapshot", "1")
	w.vd("access", "user", "nobody@example.com")
	w.vd("access", "user", "nobody")
	w.vd("access", "user")
	w.formats(".email", ".", "{{range .}}{{.email}}\n{{end}}", "access", "project", gp)
	w.vd("access", "project", gp, "--snapshot", "1")
	w.vd("access", "project", ghost)
	w.vd("access", "project", "nope")
	w.vd("access", "project")
	w.formats(".change", ".", "{{range .}}{{.}}\n{{end}}", "access", "diff")
	w.vd("access", "diff", "1", "2")
	w.vd("access", "diff", "2", "1")
	w.vd("access", "diff", "2", "2")
	w.vd("access", "diff", "1", "99")
	w.vd("access", "diff", "1", "x")
	w.vd("access", "diff", "0")
	w.vd("access", "diff", "1", "2", "3")

	// ---- person (the seeded sim, then the leaver's) ----
	w.formats(".", ".", "{{.}}", "person", otherEmail)
	for _, a := range [][]string{
		{"--offline"}, {"--offline", "--json"}, {"--csv", "--section", "reach"}, {"--csv", "--section", "created"},
		{"--csv", "--section", "deleted"}, {"--csv", "--section", "activity"}, {"--csv", "--section", "bogus"},
		{"--section", "reach"}, {"--offboarding"}, {"--offboarding", "--json"}, {"--since", "7d"}, {"--since", "2025-05-01", "--json"},
		{"--since", "nonsense"}, {"extra"},
	} {
		w.vd(append([]string{"person", otherEmail}, a...)...)
	}
	w.vd("person", "nobody@example.com")
	w.vd("person", "nobody@example.com", "--json")
	w.vd("person", "nobody")
	who := w.lv.Leaver()
	w.lvd("--max-rate", "100000", "audit", "sync")
	for _, f := range [][]string{nil, {"--json"}, {"--jsonl"}, {"--csv"}, {"--jq", ".reach"}, {"--template", "{{.email}}"}} {
		w.lvd(append([]string{"person", who}, f...)...)
	}
	for _, a := range [][]string{{"--offline"}, {"--csv", "--section", "reach"}, {"--csv", "--section", "created"}, {"--csv", "--section", "deleted"},
		{"--csv", "--section", "activity"}, {"--offboarding"}, {"--offboarding", "--json"}, {"--offboarding", "--csv"}, {"--since", "2025-05-01"}} {
		w.lvd(append([]string{"person", who}, a...)...)
	}
	w.lvd("person", who[:1]+"q"+who[2:])
	w.otherEmail = otherEmail
}
