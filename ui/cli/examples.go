package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/topics"
)

// examples are every command's examples, keyed by command path, in one
// place so that TestEveryCommandHasAnExample can hold the tree to them;
// help, the Markdown reference and the man pages lead with them (as gh's
// and kubectl's do). Each line is a command a person would type. A
// function, not a package variable: built when the tree is, not at start-up
// of every command (TestOurPackagesInitCheaply).
func commandExamples() map[string][]string {
	return map[string][]string{
		"vaultdeck":                  {"vaultdeck                       # the console", "vaultdeck --open bin             # the console, at the recycle bin", "vaultdeck --profile eu-prod recycle-bin --purging-within 7d"},
		"vaultdeck access":           {"vaultdeck access crawl && vaultdeck access diff", "vaultdeck access user a.donnelly@firm.example"},
		"vaultdeck access crawl":     {"vaultdeck access crawl", "vaultdeck --profile eu-prod access crawl --max-rate 50%"},
		"vaultdeck access diff":      {"vaultdeck access diff            # the last two snapshots", "vaultdeck access diff 3 7 --csv"},
		"vaultdeck access project":   {"vaultdeck access project 9c77caa6-879f-453a-bc49-4bdbddcff458", "vaultdeck access project 9c77caa6-879f-453a-bc49-4bdbddcff458 --snapshot 3 --json"},
		"vaultdeck access people":    {"vaultdeck access people", "vaultdeck access people --snapshot 3 --csv", "vaultdeck access people --filter @partner.example --sort projects,desc"},
		"vaultdeck access snapshots": {"vaultdeck access snapshots"},
		"vaultdeck access plan": {"vaultdeck access plan --remove a.donnelly@firm.example --new-manager b.okafor@firm.example --out ./leaver.json",
			"vaultdeck access plan --copy b.okafor@firm.example --to c.new@firm.example --csv", "vaultdeck access plan --set ./review.csv --out ./plan.json", "vaultdeck access plan --revert 3"},
		"vaultdeck access apply":     {"vaultdeck access apply ./leaver.json", "vaultdeck access apply --resume", "vaultdeck access apply ./plan.json --dry-run"},
		"vaultdeck access undo":      {"vaultdeck access undo 7", "vaultdeck access undo 7 --dry-run"},
		"vaultdeck access receipts":  {"vaultdeck access receipts", "vaultdeck access receipts 7 --json"},
		"vaultdeck access user":      {"vaultdeck access user a.donnelly@firm.example", "vaultdeck access user a.donnelly@firm.example --snapshot 3 --csv"},
		"vaultdeck audit":            {"vaultdeck audit --since 7d --type api:vault_delete_project", "vaultdeck audit --user m.castellano@firm.example --since 2026-11-01 --until 2026-11-08", "vaultdeck audit --grep 9c77caa6 --newest --limit 20 --json"},
		"vaultdeck audit follow":     {"vaultdeck audit follow --out /var/log/vaultdeck/audit.jsonl", "vaultdeck audit follow --checkpoint siem --once"},
		"vaultdeck audit stats":      {"vaultdeck audit stats", "vaultdeck audit stats --since 30d --by day --type api:vault_delete_project"},
		"vaultdeck audit sync":       {"vaultdeck audit sync", "vaultdeck --max-rate 50% audit sync"},
		"vaultdeck completion":       {"vaultdeck completion bash > /etc/bash_completion.d/vaultdeck", "vaultdeck completion zsh > \"${fpath[1]}/_vaultdeck\""},
		"vaultdeck config":           {"vaultdeck config", "vaultdeck config set read-only true"},
		"vaultdeck config get":       {"vaultdeck config get", "vaultdeck config get read-only"},
		"vaultdeck config set":       {"vaultdeck config set read-only true", "vaultdeck --profile eu-prod config set max-rate 50%"},
		"vaultdeck config unset":     {"vaultdeck config unset max-rate"},
		"vaultdeck demo":             {"vaultdeck demo", "vaultdeck demo --scale large --no-rate-limit --open bin"},
		"vaultdeck docs":             {"vaultdeck docs > reference.md", "vaultdeck docs --format man --dir ./man"},
		"vaultdeck files":            {"vaultdeck files 9c77caa6-879f-453a-bc49-4bdbddcff458", "vaultdeck files 9c77caa6-879f-453a-bc49-4bdbddcff458 --status processing,recoverable_failure --csv"},
		"vaultdeck login":            {"vaultdeck login --profile eu-prod --region eu", "printf '%s\\n' \"$TOKEN\" | vaultdeck login --profile ci"},
		"vaultdeck logout":           {"vaultdeck logout --profile eu-prod", "vaultdeck logout --profile old --forget"},
		"vaultdeck matters":          {"vaultdeck matters delete march-closures.csv --dry-run", "vaultdeck matters receipts"},
		"vaultdeck matters list":     {"vaultdeck matters list", "vaultdeck matters list --deleted --csv > deleted-matters.csv"},
		"vaultdeck matters delete":   {"vaultdeck matters delete march-closures.csv --dry-run", "vaultdeck matters delete march-closures.csv", "cut -f1,2 pairs.tsv | vaultdeck matters delete - --format tsv --yes"},
		"vaultdeck matters receipt":  {"vaultdeck matters receipt 12", "vaultdeck matters receipt 12 --result error --code blocked_by_ethical_wall", "vaultdeck matters receipt 12 --export csv > receipt-12.csv"},
		"vaultdeck matters receipts": {"vaultdeck matters receipts", "vaultdeck matters receipts --json"},
		"vaultdeck matters restore":  {"vaultdeck matters restore --receipt 12 --dry-run", "vaultdeck matters restore --receipt 12"},
		"vaultdeck person":           {"vaultdeck person a.donnelly@firm.example", "vaultdeck person a.donnelly@firm.example --offboarding > offboarding.csv", "vaultdeck person a.donnelly@firm.example --since 30d --section activity --csv"},
		"vaultdeck profiles":         {"vaultdeck profiles", "vaultdeck profiles --set-default eu-prod", "vaultdeck profiles --check", "vaultdeck profiles --check --json"},
		"vaultdeck projects":         {"vaultdeck projects", "vaultdeck projects --name Bellhaven --json"},
		"vaultdeck recycle-bin":      {"vaultdeck recycle-bin --purging-within 7d", "vaultdeck recycle-bin --deleted-by m.castellano@firm.example --csv", "vaultdeck recycle-bin --check --purging-within 2d   # a monitoring probe", "vaultdeck recycle-bin --filter castellano --sort files,desc --csv"},
		"vaultdeck serve actions":    {"vaultdeck serve actions", "vaultdeck serve actions --since 24h --csv"},
		"vaultdeck serve":            {"vaultdeck serve --authorized-keys ~/.ssh/vaultdeck_keys", "vaultdeck serve --authorized-keys keys --check", "vaultdeck serve --authorized-keys keys --listen 0.0.0.0:2222 --allow-writes"},
		"vaultdeck sim":              {"vaultdeck sim --addr 127.0.0.1:0", "vaultdeck sim --scale large --no-rate-limit --control"},
		"vaultdeck store":            {"vaultdeck store check", "vaultdeck store recover"},
		"vaultdeck store check":      {"vaultdeck store check", "vaultdeck store check --json"},
		"vaultdeck store recover":    {"vaultdeck store recover", "vaultdeck store recover --to ~/backup/vaultdeck-$(date +%F).db   # a consistent copy while vaultdeck runs"},
		"vaultdeck status":           {"vaultdeck status 0f6c1d2e-2b8a-4e34-9a51-6d3a1f5b7c90 --watch", "vaultdeck status --journal --group stuck", "vaultdeck uploads --json | jq -r '.[].file_id' | vaultdeck status -"},
		"vaultdeck upload":           {"vaultdeck upload 9c77caa6-879f-453a-bc49-4bdbddcff458 ./exhibits", "vaultdeck upload 9c77caa6-879f-453a-bc49-4bdbddcff458 ./exhibits --mode replace", "vaultdeck upload --resume"},
		"vaultdeck uploads":          {"vaultdeck uploads", "vaultdeck uploads 4"},
		"vaultdeck uploads report":   {"vaultdeck uploads report 4", "vaultdeck audit sync && vaultdeck uploads report 4 --json > incident-4.json", "vaultdeck uploads report 4 --csv"},
		"vaultdeck uploads undo":     {"vaultdeck uploads undo 4 --dry-run", "vaultdeck uploads undo 4", "vaultdeck uploads undo 4 --yes --json > undo-4.json", "vaultdeck audit sync && vaultdeck uploads undo 4 --receipt"},
		"vaultdeck users":            {"vaultdeck users 9c77caa6-879f-453a-bc49-4bdbddcff458", "vaultdeck users 9c77caa6-879f-453a-bc49-4bdbddcff458 --csv"},
		"vaultdeck version":          {"vaultdeck version"},
		"vaultdeck view":             {"vaultdeck view", "vaultdeck view purging-this-week"},
		"vaultdeck whoami":           {"vaultdeck whoami", "vaultdeck --profile eu-prod whoami --json"},
		"vaultdeck help":             {"vaultdeck help recycle-bin", "vaultdeck help environment", "vaultdeck help audit           # the command, then the topic"},
	}
}

// addExamples sets every command's Example from examples, and has help
// lead with them: cobra's template puts them after the usage line. It also
// notes the help topics that tell more about the command (topicsNote), which
// its help ends with.
func addExamples(c *cobra.Command) { addExamplesFrom(c, commandExamples()) }

func addExamplesFrom(c *cobra.Command, examples map[string][]string) {
	if ex, ok := examples[c.CommandPath()]; ok {
		c.Example = "  " + strings.Join(ex, "\n  ")
	}
	if names := topics.For(c.CommandPath()); len(names) > 0 && c.HasParent() {
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations[topicsNote] = "vaultdeck help " + strings.Join(names, ", vaultdeck help ")
	}
	for _, s := range c.Commands() {
		addExamplesFrom(s, examples)
	}
}

// topicsNote is the annotation naming the help topics of a command.
const topicsNote = "vaultdeck-topics"

// examplesFirst moves the Examples block of cobra's usage template to its
// top, so `vaultdeck help audit` shows examples before the usage line and
// the flags; it ends the root's help with the list of help topics, and a
// command's with the topics about it.
func examplesFirst(root *cobra.Command) {
	const block = "{{if .HasExample}}\n\nExamples:\n{{.Example}}{{end}}"
	t := root.UsageTemplate()
	if !strings.Contains(t, block) {
		return // cobra changed its template: leave it as it is
	}
	root.SetUsageTemplate("{{if .HasExample}}Examples:\n{{.Example}}\n\n{{end}}" + strings.Replace(t, block, "", 1) +
		"{{if not .HasParent}}\n" + topics.List() + "{{end}}" +
		"{{with index .Annotations \"" + topicsNote + "\"}}\nRead more: {{.}}\n{{end}}")
}
