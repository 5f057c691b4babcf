package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

func (w *walkWorld) matters() {
	s, root := w.s, w.root
	// ---- matters (after the colleagues' matters harness) ----
	var live []sim.MatterInfo
	for _, m := range s.Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && len(live) < 4 {
			live = append(live, m)
		}
	}
	var b strings.Builder
	b.WriteString("\uFEFFClient_ID,Matter_ID,Description\r\n")
	for _, m := range live[:3] {
		b.WriteString(m.ClientID + ",\"" + m.MatterID + "\",\"closed, \"\"archived\"\"\"\r\n")
	}
	b.WriteString(sim.LinkedClientID + "," + sim.LinkedMatterID + ",linked\r\n")
	b.WriteString(sim.ConflictClientID + ",X1,conflict\r\n")
	b.WriteString(" ,X,empty client\r\n")
	b.WriteString("日本語クライアント,M-日本,wide\r\n")
	b.WriteString("ESC\x1b[31mRED,M9,escape\r\n")
	b.WriteString(live[0].ClientID + ",\"" + live[0].MatterID + "\",dup\r\n")
	mf := filepath.Join(root, "m.csv")
	os.WriteFile(mf, []byte(b.String()), 0o600)
	bad := filepath.Join(root, "bad.csv")
	os.WriteFile(bad, []byte("client_id,matter_id\nC,M\n\"C2,M2\n"), 0o600)
	none := filepath.Join(root, "none.csv")
	os.WriteFile(none, []byte("client_id,matter_id\n ,M\n"), 0o600)
	tsv := filepath.Join(root, "t.tsv")
	os.WriteFile(tsv, []byte("client_id\tmatter_id\textra\n"+live[3].ClientID+"\t"+live[3].MatterID+"\tx\n"), 0o600)
	w.vd("matters")
	w.vd("matters", "x")
	w.formats(".name", ".", "{{range .}}{{.name}} {{end}}", "matters", "list")
	w.vd("matters", "list", "--deleted")
	w.vd("matters", "list", "--present", "--csv")
	w.vd("matters", "list", "--deleted", "--present")
	w.formats(".id|tostring", ".", "{{range .}}{{.id}} {{end}}", "matters", "receipts")
	for _, g := range [][]string{nil, {"--json"}, {"--jsonl"}, {"--csv"}, {"--jq", ".pairs"}, {"--jsonl", "--jq", ".pairs"}, {"--template", "{{.to_send}}"}, {"--json", "--csv"}} {
		w.vd(append(g, "matters", "delete", mf, "--dry-run")...)
	}
	w.vd("matters", "delete", tsv, "--dry-run", "--format", "tsv")
	w.vd("matters", "delete", tsv, "--dry-run", "--format", "xml")
	w.vd("matters", "delete")
	w.vd("matters", "delete", mf, mf)
	w.vd("matters", "delete", filepath.Join(root, "missing.csv"), "--dry-run")
	w.vd("matters", "delete", bad, "--yes")
	w.vd("matters", "delete", none, "--yes")
	w.vd("matters", "delete", none, "--dry-run")
	w.vdIn(b.String(), "matters", "delete", "-")
	w.vdIn(tty("99\n"), "matters", "delete", mf)
	w.vdIn(tty("1,0\n"), "matters", "delete", tsv)
	w.vd("matters", "delete", mf, "--yes")
	for _, g := range [][]string{{"--json"}, {"--jsonl"}, {"--csv"}, {"--jq", ".counts"}, {"--jsonl", "--jq", ".receipt"}} {
		w.vd(append(g, "matters", "delete", mf, "--yes")...)
	}
	w.vdIn(b.String(), "matters", "delete", "-", "--yes")
	w.formats(".id|tostring", ".", "{{range .}}{{.id}} {{end}}", "matters", "receipts")
	w.formats(".client_id", ".", "{{range .}}{{.client_id}} {{end}}", "matters", "receipt", "1")
	for _, x := range [][]string{{"--export", "csv"}, {"--export", "json"}, {"--jsonl", "--export", "json"}, {"--csv", "--export", "json"}, {"--json", "--export", "csv"},
		{"--export", "xml"}, {"--result", "deleted"}, {"--code", "invalid_client_id"}, {"--result", "error", "--export", "csv"}, {"--result", "error", "--json"}} {
		w.vd(append([]string{"matters", "receipt", "1"}, x...)...)
	}
	w.vd("matters", "receipt", "x")
	w.vd("matters", "receipt", "0")
	w.vd("matters", "receipt")
	w.vd("matters", "receipt", "99")
	w.vd("matters", "receipt", "2")
	for _, g := range [][]string{nil, {"--json"}, {"--jsonl"}, {"--csv"}, {"--jq", ".pairs|length"}, {"--template", "{{.}}"}} {
		w.vd(append(g, "matters", "restore", "--receipt", "1", "--dry-run")...)
	}
	w.vd("matters", "restore")
	w.vd("matters", "restore", "--receipt", "99", "--dry-run")
	w.vd("matters", "restore", "--receipt", "x")
	w.vd("matters", "restore", "--receipt", "1")
	w.vdIn(tty("7\n"), "matters", "restore", "--receipt", "1")
	w.vd("--json", "matters", "restore", "--receipt", "1", "--yes")
	w.vd("matters", "restore", "--receipt", "1", "--yes")
	w.vd("--json", "matters", "restore", "--receipt", "1", "--dry-run")
	w.vd("matters", "restore", "--receipt", "2", "--yes")
	w.vd("matters", "receipts")
	w.vd("matters", "receipt", "1")
	w.mf, w.bad, w.none, w.tsv = mf, bad, none, tsv
}

func (w *walkWorld) mattersShapers() {
	otherEmail, up, upPid, mf, shapers := w.otherEmail, w.up, w.upPid, w.mf, w.shapers
	// ---- the shapers on the matters commands (--jsonl with --jq or --template, --export with each) ----
	for _, g := range shapers {
		w.vd(append([]string{"matters", "delete", mf, "--dry-run"}, g...)...)
		w.vd(append([]string{"matters", "restore", "--receipt", "1", "--dry-run"}, g...)...)
		w.vd(append([]string{"matters", "receipts"}, g...)...)
		w.vd(append([]string{"matters", "receipt", "2"}, g...)...)
		w.vd(append([]string{"matters", "receipt", "1", "--export", "json"}, g...)...)
		w.vd(append([]string{"matters", "receipt", "1", "--export", "csv"}, g...)...)
	}
	for _, g := range [][]string{{"--jsonl", "--jq", ".counts"}, {"--jsonl", "--template", "{{.id}}"}, {"--template", "{{.id}}"}} {
		w.vd(append([]string{"matters", "delete", mf, "--yes"}, g...)...)
		w.vd(append([]string{"matters", "restore", "--receipt", "1", "--yes"}, g...)...)
	}
	w.vd("matters", "receipt", "1", "--export", "json", "--result", "deleted")
	w.vd("matters", "receipt", "1", "--export", "csv", "--result", "deleted")
	w.vd("matters", "receipt", "1", "--export", "json", "--code", "invalid_client_id")
	w.vd("matters", "receipt", "2", "--export", "json")
	w.vd("matters", "receipt", "2", "--export", "csv")
	w.vd("matters", "receipt", "7", "--export", "json")
	w.vd("matters", "receipt", "7", "--export", "csv")
	w.vd("matters", "receipts", "--csv")

	// ---- the shapers on the other single-object and event commands ----
	for _, g := range shapers {
		w.vd(append([]string{"version"}, g...)...)
		w.vd(append([]string{"whoami"}, g...)...)
		w.vd(append([]string{"recycle-bin", "--check"}, g...)...)
		w.vd(append([]string{"audit", "stats", "--since", "2025-05-01", "--until", "2025-06-03"}, g...)...)
		w.vd(append([]string{"audit", "sync"}, g...)...)
		w.vd(append([]string{"audit", "follow", "--once", "--start", "latest"}, g...)...)
		w.vd(append([]string{"--max-rate", "100000", "access", "crawl"}, g...)...)
		w.vd(append([]string{"person", otherEmail}, g...)...)
		w.vd(append([]string{"person", otherEmail, "--offboarding"}, g...)...)
		w.vd(append([]string{"upload", upPid, filepath.Join(up, "a.pdf")}, g...)...)
		w.vd(append([]string{"upload", "--resume"}, g...)...)
		w.vd(append([]string{"uploads", "2"}, g...)...)
		w.vd(append([]string{"access", "diff", "1", "2"}, g...)...)
		w.vd(append([]string{"access", "user", otherEmail}, g...)...)
		w.vd(append([]string{"docs"}, g...)...)
		w.vd(append([]string{"completion", "bash"}, g...)...)
	}

	os.WriteFile(filepath.Join(up, "e.txt"), []byte("e"), 0o644)
	w.vd("upload", upPid, filepath.Join(up, "e.txt"), "--jsonl", "--jq", ".uploaded")
	w.vd("uploads", "--jq", ".[] | .id")
	w.vd("files", upPid, "--jq", ".[] | .name")
	w.vd("matters", "receipts", "--jq", ".[] | .id")
	w.vd("matters", "receipt", "1", "--export", "json", "--json")
	w.vd("matters", "receipt", "1", "--export", "json", "--jsonl")
	w.vd("matters", "receipt", "8", "--export", "json")

	// ---- config (token env: no profile) ----
	w.vd("config")
	w.vd("config", "get")
	w.vd("config", "get", "theme")
	w.vd("config", "set", "theme", "dark")
	w.vd("config", "list")
}
