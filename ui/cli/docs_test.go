package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/topics"
)

// TestManPageTextIsInert: text from the command tree cannot become a roff
// request or escape (a line starting with a dot or a quote, a backslash).
func TestManPageTextIsInert(t *testing.T) {
	c := &cobra.Command{Use: "x", Short: `a \fBbold\fR claim`, Long: "first line\n.so /etc/passwd\n'br\nlast", Run: func(*cobra.Command, []string) {}}
	c.Flags().String("path", "", ".TH usage starting with a dot")
	page := manPage(c)
	for _, line := range strings.Split(page, "\n") {
		for _, bad := range []string{".so", "'br", ".TH usage"} {
			if strings.HasPrefix(line, bad) {
				t.Errorf("a line of the page is a roff request: %q", line)
			}
		}
	}
	if strings.Contains(page, `\fBbold`) || !strings.Contains(page, `\efBbold`) {
		t.Errorf("the backslash in Short was not escaped:\n%s", page)
	}
	if !strings.Contains(page, "--path") || !strings.Contains(page, ".SH OPTIONS") {
		t.Errorf("the flag is missing:\n%s", page)
	}
}

// TestDocsWritesEveryPage: `vaultdeck docs` prints a section for every
// command, and --dir writes a page for every command and every help topic,
// in both formats (the reference lived in the README, held there by a test;
// it is generated now, and this holds it to the tree).
func TestDocsWritesEveryPage(t *testing.T) {
	_, vd := countingEnv(t)
	root := newTree(Env{}).newRoot()
	var paths []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.IsAvailableCommand() || c == root {
			paths = append(paths, c.CommandPath())
			for _, s := range c.Commands() {
				walk(s)
			}
		}
	}
	walk(root)
	ref := vd("docs")
	if ref.code != 0 {
		t.Fatalf("docs: %d %q", ref.code, ref.stderr)
	}
	for _, p := range paths {
		if !strings.Contains(ref.stdout, "#### `"+p+"`\n") {
			t.Errorf("the reference has no section for %s", p)
		}
	}
	for _, format := range []string{"man", "markdown"} {
		dir := t.TempDir()
		if r := vd("docs", "--dir", dir, "--format", format); r.code != 0 {
			t.Fatalf("%s: %d %q", format, r.code, r.stderr)
		}
		want := map[string]string{}
		for _, p := range paths {
			if format == "man" {
				want[strings.ReplaceAll(p, " ", "-")+".1"] = ".SH SYNOPSIS"
			} else {
				want[strings.ReplaceAll(p, " ", "_")+".md"] = "## `" + p + "`"
			}
		}
		for _, topic := range topics.All() {
			if format == "man" {
				want["vaultdeck-"+topic.Name+".7"] = ".SH NAME\nvaultdeck-" + topic.Name
			} else {
				want["vaultdeck_help_"+topic.Name+".md"] = "# vaultdeck help " + topic.Name
			}
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != len(want) {
			t.Errorf("%s: %d pages written, want %d", format, len(entries), len(want))
		}
		for name, has := range want {
			page, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil || !strings.Contains(string(page), has) {
				t.Errorf("%s: %s: %v, lacks %q", format, name, err, has)
			}
		}
	}
}

// TestHelpTopics: `vaultdeck help TOPIC` prints the topic (its Markdown, into
// a buffer that is no terminal); a name that is a command and a topic prints
// the command's help, then the topic; `vaultdeck help` lists every topic, a
// command's help points to its own, completion offers them, and an unknown
// name is a usage error.
func TestHelpTopics(t *testing.T) {
	_, vd := countingEnv(t)
	env, _ := topics.Find("environment")
	if r := vd("help", "environment"); r.code != 0 || r.stdout != env.Markdown() {
		t.Errorf("help environment: %d %q", r.code, head(r.stdout))
	}
	audit, _ := topics.Find("audit")
	both, cmd := vd("help", "audit"), vd("audit", "--help")
	if !strings.HasPrefix(both.stdout, cmd.stdout) || !strings.HasSuffix(both.stdout, audit.Markdown()) {
		t.Errorf("help audit is not the command's help, then the topic:\n%s", both.stdout)
	}
	list := vd("help")
	for _, topic := range topics.All() {
		if !strings.Contains(list.stdout, "\n  "+topic.Name+" ") {
			t.Errorf("help does not list the topic %s", topic.Name)
		}
		for _, path := range topic.Commands {
			args := strings.Fields(path)[1:]
			if len(args) == 0 {
				continue // the root's help lists every topic
			}
			h := vd(append(args, "--help")...)
			if h.code != 0 || !strings.Contains(h.stdout, "Read more: ") || !strings.Contains(h.stdout, "vaultdeck help "+topic.Name) {
				t.Errorf("%s --help (%d) does not point to its topic %s:\n%s", path, h.code, topic.Name, h.stdout)
			}
		}
	}
	if r := vd("__complete", "help", ""); !strings.Contains(r.stdout, "environment\n") || !strings.Contains(r.stdout, "recycle-bin\n") {
		t.Errorf("help's completion: %q", r.stdout)
	}
	if r := vd("help", "nope"); r.code != ExitUsage || !strings.Contains(r.stderr, `unknown command or help topic "nope"`) {
		t.Errorf("help nope: %d %q", r.code, r.stderr)
	}
}

// TestEveryHelpMentionResolves: every `vaultdeck help NAME` that README.md
// or a topic mentions names a command or a topic, so the manual's
// cross-references cannot go stale.
func TestEveryHelpMentionResolves(t *testing.T) {
	_, vd := countingEnv(t)
	mention := regexp.MustCompile("vaultdeck help ([a-z][a-z-]*)")
	texts := map[string]string{}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	texts["README.md"] = string(readme)
	for _, topic := range topics.All() {
		texts[topic.Name+".md"] = topic.Markdown()
	}
	seen := map[string]bool{}
	for file, text := range texts {
		for _, m := range mention.FindAllStringSubmatch(text, -1) {
			if seen[m[1]] {
				continue
			}
			seen[m[1]] = true
			if r := vd("help", m[1]); r.code != 0 {
				t.Errorf("%s mentions `vaultdeck help %s`: %s", file, m[1], r.stderr)
			}
		}
	}
}

// TestTopicsNameCommandsThatExist: a topic's Commands are paths of the tree.
func TestTopicsNameCommandsThatExist(t *testing.T) {
	root := newTree(Env{}).newRoot()
	for _, topic := range topics.All() {
		for _, path := range topic.Commands {
			c, rest, err := root.Find(strings.Fields(path)[1:])
			if err != nil || len(rest) > 0 || c.CommandPath() != path {
				t.Errorf("topic %s names %q, which is no command", topic.Name, path)
			}
		}
	}
}
