// Package topics is vaultdeck's manual beyond the command reference: the
// help topics that `vaultdeck help TOPIC` prints and `vaultdeck docs
// --format man` writes as section 7 pages. They are Markdown files embedded
// in the binary, since a jump host reached over SSH has no browser; a
// small index (All) names them, says what each covers, and which commands'
// help points to it.
//
// The Markdown is a subset that reads well as plain text (headings,
// paragraphs, lists, fenced code, tables, `code` and **bold**): printed as
// it is into a pipe, lightly styled and re-wrapped on a terminal (Render),
// turned into roff for man (Man). No Markdown library: a renderer's package
// initialisation would be paid by every command's start
// (TestOurPackagesInitCheaply), for a subset this small.
package topics

import (
	"embed"
	"strings"
)

//go:embed *.md
var files embed.FS

// Topic is one page of the manual.
type Topic struct {
	Name  string // the word after `vaultdeck help`; the file is Name.md
	Short string // one line for the list `vaultdeck help` prints
	// Commands are the command paths whose help ends by pointing here
	// ("vaultdeck audit follow"); a command's subcommands do not inherit it.
	Commands []string
}

// All lists the topics in the order `vaultdeck help` shows them: first what
// a newcomer reads, then the jobs, then the reference pages. A function, not
// a package variable: nothing is built at start-up.
func All() []Topic {
	return []Topic{
		{"console", "the console: its views, its keys, the command line inside it", []string{"vaultdeck", "vaultdeck demo"}},
		{"profiles", "logging in, profiles, where the token is kept, per-profile settings", []string{"vaultdeck login", "vaultdeck logout", "vaultdeck profiles", "vaultdeck config", "vaultdeck config get", "vaultdeck config set", "vaultdeck config unset"}},
		{"formatting", "output: tables, --json, --jsonl, --csv, --jq and --template", nil},
		{"saved-views", "from a view to a script: the equivalent command (C), saved views (V, :NAME, vaultdeck view)", []string{"vaultdeck view"}},
		{"uploads", "uploads: folders, the journal, --resume, status --journal and --watch, same-named files", []string{"vaultdeck upload", "vaultdeck uploads", "vaultdeck status"}},
		{"matters", "deleting client matters from a spreadsheet: preview, receipts, restore", []string{"vaultdeck matters", "vaultdeck matters delete", "vaultdeck matters receipt", "vaultdeck matters receipts", "vaultdeck matters restore"}},
		{"audit", "the audit log: the local mirror, questions, follow, SIEM recipes, the systemd unit", []string{"vaultdeck audit", "vaultdeck audit sync", "vaultdeck audit follow"}},
		{"activity", "activity at a glance: audit stats, :activity and what stands out", []string{"vaultdeck audit stats"}},
		{"access", "the access review: crawls, snapshots, who reaches what, what changed", []string{"vaultdeck access", "vaultdeck access crawl", "vaultdeck access diff", "vaultdeck access people", "vaultdeck access project", "vaultdeck access snapshots", "vaultdeck access user", "vaultdeck access plan", "vaultdeck access apply", "vaultdeck access undo", "vaultdeck access receipts"}},
		{"person", "one person, whole: offboarding and investigations", []string{"vaultdeck person"}},
		{"monitoring", "probes for cron, Nagios and Icinga: the purge watch, unfinished uploads", []string{"vaultdeck recycle-bin"}},
		{"serve", "the console over SSH on a jump host: keys, profiles, limits, the systemd unit", []string{"vaultdeck serve"}},
		{"security", "the token, redaction, origins, what reaches the terminal and the files", nil},
		{"requests", "timeouts, retries, the request budget shared on this machine, bounds on answers", nil},
		{"local-data", "the files vaultdeck keeps and the one database every process shares", nil},
		{"simulator", "vaultdeck sim: the seeded workspace, its rules, its control endpoints", []string{"vaultdeck sim"}},
		{"environment", "every environment variable vaultdeck reads", nil},
		{"exit-codes", "exit statuses, and what a usage error looks like", nil},
	}
}

// Find returns the topic called name.
func Find(name string) (Topic, bool) {
	for _, t := range All() {
		if t.Name == name {
			return t, true
		}
	}
	return Topic{}, false
}

// Names are the topics' names, in All's order (shell completion).
func Names() []string {
	all := All()
	out := make([]string, len(all))
	for i, t := range all {
		out[i] = t.Name
	}
	return out
}

// For lists the topics whose Commands name the command path.
func For(path string) []string {
	var out []string
	for _, t := range All() {
		for _, c := range t.Commands {
			if c == path {
				out = append(out, t.Name)
			}
		}
	}
	return out
}

// Markdown is the topic's text as written.
func (t Topic) Markdown() string {
	b, err := files.ReadFile(t.Name + ".md")
	if err != nil { // TestEveryTopicHasItsFile holds the index to the files
		return "# " + t.Name + "\n\n" + t.Short + "\n"
	}
	return string(b)
}

// List is the block `vaultdeck help` ends with: every topic and its line.
func List() string {
	var b strings.Builder
	b.WriteString("Help topics (vaultdeck help TOPIC; man 7 vaultdeck-TOPIC once `vaultdeck docs --format man` wrote them):\n")
	for _, t := range All() {
		b.WriteString("  " + t.Name + strings.Repeat(" ", max(1, 13-len(t.Name))) + t.Short + "\n")
	}
	return b.String()
}
