package cli

import (
	"path/filepath"
	"strings"
)

func (w *walkWorld) meta() {
	root, pid := w.root, w.pid
	// ---- meta: version, docs, help, completion ----
	w.vd()
	w.vd("--version")
	w.vd("version")
	w.vd("version", "--json")
	w.vd("version", "--jsonl")
	w.vd("version", "--csv")
	w.vd("version", "--jq", ".version")
	w.vd("version", "--template", "{{.version}}")
	w.vd("version", "extra")
	w.vd("docs")
	w.vd("docs", "--format", "man")
	w.vd("docs", "--format", "xml")
	w.vd("docs", "--json")
	w.vd("docs", "extra")
	w.vd("docs", "--dir", filepath.Join(root, "docs-md"))
	w.vd("docs", "--dir", filepath.Join(root, "docs-man"), "--format", "man")
	w.vd("help")
	w.vd("--help")
	w.vd("-h")
	cmds := [][]string{
		{"access"}, {"access", "crawl"}, {"access", "diff"}, {"access", "people"}, {"access", "project"}, {"access", "snapshots"}, {"access", "user"},
		{"audit"}, {"audit", "follow"}, {"audit", "stats"}, {"audit", "sync"},
		{"completion"}, {"config"}, {"config", "get"}, {"config", "set"}, {"config", "unset"},
		{"demo"}, {"docs"}, {"files"}, {"login"}, {"logout"},
		{"matters"}, {"matters", "list"}, {"matters", "delete"}, {"matters", "receipt"}, {"matters", "receipts"}, {"matters", "restore"},
		{"person"}, {"profiles"}, {"projects"}, {"recycle-bin"}, {"serve"}, {"sim"}, {"status"},
		{"upload"}, {"uploads"}, {"users"}, {"version"}, {"view"}, {"whoami"}, {"help"},
	}
	for _, c := range cmds {
		w.vd(append(append([]string{}, c...), "-h")...)
		w.vd(append([]string{"help"}, c...)...)
	}
	for _, c := range [][]string{{"projects"}, {"recycle-bin"}, {"matters", "delete"}, {"status"}} {
		w.vd(append(append([]string{}, c...), "--help")...)
	}
	w.vd("help", "nosuch")
	w.vd("help", "projects", "extra")
	// help topics (only the tree after the manual has them: an intended difference)
	w.vd("help", "formatting")
	w.vd("help", "exit-codes")
	w.vd("completion", "bash")
	w.vd("completion", "zsh")
	w.vd("completion", "fish")
	w.vd("completion")
	w.vd("completion", "powershell")
	w.vd("completion", "bash", "extra")
	w.vd("__complete", "")
	w.vd("__complete", "audit", "")
	w.vd("__complete", "matters", "")
	w.vd("__complete", "access", "")
	w.vd("__complete", "config", "set", "theme", "")
	w.vd("__complete", "recycle-bin", "--")
	w.vd("__complete", "projects", "--name", "")
	w.vd("__complete", "--profile", "")
	w.vd("__complete", "view", "")
	w.vd("__complete", "upload", pid, "")

	// ---- usage errors, global flags ----
	w.vd("nosuch")
	w.vd("projects", "--bogus")
	w.vd("--bogus", "projects")
	w.vd("projects", "extra")
	w.vd("users")
	w.vd("files")
	w.vd("status")
	w.vd("person")
	w.vd("--region", "xx", "projects")
	w.vd("--timeout", "x", "projects")
	w.vd("--timeout", "-1s", "projects")
	w.vd("--max-rate", "abc", "projects")
	w.vd("--max-rate", "0", "projects")
	w.vd("--max-rate", "150%", "projects")
	w.vd("--ca-file", filepath.Join(root, "missing.pem"), "projects")
	w.vd("--profile", "nosuch", "projects")
	w.vd("--no-color", "projects")
	w.vd("projects", "--theme", "dark")
	w.vd("--theme", "sepia")
	w.vd("--open", "nowhere")
	w.vd("--read-only", "projects")
}

func (w *walkWorld) listings() {
	pid, emptyPid, gp, fids, ghost, adminEmail := w.pid, w.emptyPid, w.gp, w.fids, w.ghost, w.adminEmail
	// ---- whoami ----
	w.formats(".email", ".", "{{.email}}", "whoami")
	w.vd("whoami", "extra")

	// ---- projects, users, files ----
	w.formats(".name", ".", "{{range .}}{{.name}}\n{{end}}", "projects")
	w.vd("projects", "--name", "golden")
	w.vd("projects", "--name", "GOLDEN", "--json")
	w.vd("projects", "--name", "no project is called this")
	w.vd("projects", "--name", "no project is called this", "--json")
	w.vd("projects", "--name", "no project is called this", "--csv")
	w.vd("projects", "--name")
	w.formats(".email", ".", "{{range .}}{{.email}} {{.access_level}}\n{{end}}", "users", pid)
	w.vd("users", gp)
	w.vd("users", ghost)
	w.vd("users", "not-a-uuid")
	w.vd("users", pid, "extra")
	w.formats(".name", ".", "{{range .}}{{.name}}\n{{end}}", "files", gp)
	w.vd("files", pid)
	w.vd("files", pid, "--json")
	w.vd("files", emptyPid)
	w.vd("files", emptyPid, "--json")
	w.vd("files", emptyPid, "--csv")
	w.vd("files", gp, "--status", "processing,ready_to_query")
	w.vd("files", gp, "--status", "PROCESSING", "--json")
	w.vd("files", gp, "--status", "bogus")
	w.vd("files", gp, "--name", "pdf")
	w.vd("files", gp, "--name", "zzz", "--csv")
	w.vd("files", ghost)
	w.vd("files", "not-a-uuid")

	// ---- recycle-bin ----
	w.formats(".vault_project.name", ".vault_project", "{{range .}}{{.vault_project.name}}\n{{end}}", "recycle-bin")
	for _, a := range [][]string{
		{"--check"}, {"--check", "--json"}, {"--check", "--csv"}, {"--check", "--purging-within", "1d"}, {"--check", "--purging-within", "365d"},
		{"--check", "--purging-within", "1m"}, {"--purging-within", "7d"}, {"--purging-within", "36h"}, {"--purging-within", "30d", "--json"},
		{"--purging-within", "bogus"}, {"--purging-within", "-1d"}, {"--deleted-by", adminEmail}, {"--deleted-by", adminEmail, "--json"},
		{"--deleted-by", "nobody@example.com"}, {"--deleted-by", strings.ToUpper(adminEmail)}, {"--name", "a"}, {"--name", "A", "--csv"},
		{"--name", "no such"}, {"--name", "no such", "--json"}, {"--client-matter", ghost}, {"--client-matter", "bogus"},
		{"--name", "a", "--purging-within", "30d", "--deleted-by", adminEmail}, {"extra"},
	} {
		w.vd(append([]string{"recycle-bin"}, a...)...)
	}

	// ---- status ----
	w.formats(".file_name", ".", "{{range .}}{{.file_name}} {{.processing_status}}\n{{end}}", "status", strings.Join(fids, ","))
	w.vd("status", fids[0])
	w.vd("status", fids[0], "--json")
	w.vd("status", fids[0], fids[1])
	w.vd("status", fids[0], ghost)
	w.vd("status", fids[0], ghost, "--json")
	w.vd("status", ghost)
	w.vd("status", "not-an-id")
	w.vdIn(strings.Join(fids[:3], "\n")+"\n", "status", "-")
	w.vdIn(strings.Join(fids[:3], "\n")+"\n", "status", "-", "--json")
	w.vdIn("", "status", "-")
	w.vd("status", "-", fids[0])
	w.vd("status", "--group", "stuck", fids[0])
	w.vd("status", "--stuck-after", "bogus", fids[0])
	// watches, bounded by the clock (ended after a few sleeps)
	for _, f := range [][]string{nil, {"--json"}, {"--jsonl"}, {"--csv"}, {"--jq", ".file_name"}, {"--stuck-after", "1m"}} {
		w.runIn(w.tokEnv, "", 3, append([]string{"status", "--watch", strings.Join(fids, ",")}, f...)...)
	}
	w.runIn(w.tokEnv, "", 3, "status", "--watch", ghost)
	w.runIn(w.tokEnv, "", 3, "status", "--watch", fids[0])
	w.runIn(w.tokEnv, "", 3, "status", "--watch", "--journal")
	// --journal before anything is journaled
	w.vd("status", "--journal")
	w.vd("status", "--journal", "--json")
}
