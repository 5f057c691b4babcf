package topics

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestEveryTopicHasItsFile: the index and the embedded files agree both
// ways, and each page opens with the title `vaultdeck help` prints.
func TestEveryTopicHasItsFile(t *testing.T) {
	entries, err := fs.Glob(files, "*.md")
	if err != nil {
		t.Fatal(err)
	}
	names := Names()
	for _, e := range entries {
		if !slices.Contains(names, strings.TrimSuffix(e, ".md")) {
			t.Errorf("%s is embedded but no topic of the index names it", e)
		}
	}
	for _, topic := range All() {
		md, err := files.ReadFile(topic.Name + ".md")
		if err != nil {
			t.Errorf("topic %s has no file %s.md", topic.Name, topic.Name)
			continue
		}
		if want := "# vaultdeck help " + topic.Name + ": "; !strings.HasPrefix(string(md), want) {
			t.Errorf("%s.md does not start with %q", topic.Name, want)
		}
		if topic.Short == "" || strings.Contains(topic.Short, "\n") {
			t.Errorf("topic %s: its line %q", topic.Name, topic.Short)
		}
	}
}

// TestEveryTopicRenders: into a pipe a topic is its Markdown as written; on
// a terminal it fits the width (but for a word or a literal line wider than
// it) with no Markdown mark left; as a man page no line is a roff request
// that was not meant as one.
func TestEveryTopicRenders(t *testing.T) {
	requests := regexp.MustCompile(`^\.(TH|SH|SS|PP|IP|TP|RS|RE|nf|fi|br)( |$)`)
	for _, topic := range All() {
		if got := topic.Render(Style{}); got != topic.Markdown() {
			t.Errorf("%s: plain rendering differs from its Markdown", topic.Name)
		}
		for _, width := range []int{60, 100} {
			out := topic.Render(Style{Terminal: true, Width: width})
			inCode := codeLines(topic.Markdown())
			for _, line := range strings.Split(out, "\n") {
				plain := ansi.Strip(line)
				if inCode[strings.TrimPrefix(plain, "    ")] {
					continue // a literal line is printed as written
				}
				if w := ansi.StringWidth(plain); w > width && strings.Contains(strings.TrimSpace(plain), " ") {
					t.Errorf("%s at %d columns: a line of %d columns: %q", topic.Name, width, w, plain)
				}
				for _, mark := range []string{"**", "```", "<!--"} {
					if strings.Contains(plain, mark) {
						t.Errorf("%s at %d columns: a Markdown mark %q is left: %q", topic.Name, width, mark, plain)
					}
				}
				if strings.HasPrefix(plain, "#") || strings.HasPrefix(strings.TrimSpace(plain), "|") {
					t.Errorf("%s at %d columns: a heading or a table row kept its marks: %q", topic.Name, width, plain)
				}
			}
		}
		page := topic.Man()
		if !strings.HasPrefix(page, ".TH \"VAULTDECK-"+strings.ToUpper(topic.Name)+"\" 7 ") || !strings.Contains(page, ".SH NAME\nvaultdeck-"+topic.Name+` \- `) {
			t.Errorf("%s: the man page's title or name:\n%.300s", topic.Name, page)
		}
		for _, line := range strings.Split(page, "\n") {
			if (strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'")) && !requests.MatchString(line) {
				t.Errorf("%s: a man line is read as a roff request: %q", topic.Name, line)
			}
		}
	}
}

// codeLines are the lines of md's fenced blocks.
func codeLines(md string) map[string]bool {
	out := map[string]bool{}
	for _, b := range parse(md) {
		for _, l := range b.lines {
			out[l] = true
		}
	}
	return out
}

// TestRenderReadsTheSubset: what each construct of the subset becomes on a
// terminal and in roff.
func TestRenderReadsTheSubset(t *testing.T) {
	md := "# vaultdeck help x: a title\n\nSome `--flag` and **bold `lit`** text, a [link](https://example.org).\n\n" +
		"- one\n  continued\n- two\n\n1. first\n2. second\n\n| key | default | what |\n|---|---|---|\n| `theme` | `auto` | the colours \\| all |\n\n" +
		"<!-- a marker -->\n```\n.so /etc/passwd\n```\n"
	out := ansi.Strip(render(md, Style{Terminal: true, Width: 80}))
	for _, want := range []string{"vaultdeck help x: a title\n", "Some --flag and bold lit text, a link (https://example.org).\n",
		"• one continued\n• two\n", "1. first\n2. second\n", "  theme\n      default: auto\n      what: the colours | all\n", "    .so /etc/passwd\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal rendering lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "marker") {
		t.Errorf("a comment was printed:\n%s", out)
	}
	styled := render(md, Style{Terminal: true, Width: 80})
	if !strings.Contains(styled, bold+"bold"+reset) || strings.Contains(styled, bold+"--flag") {
		t.Errorf("**strong** is bold and `code` plain on a terminal:\n%q", styled)
	}
	page := manOf(Topic{Name: "x", Short: "a title"}, md)
	if !strings.Contains(page, `Some \fB--flag\fR and \fBbold lit\fR text`) || !strings.Contains(page, "\\&.so /etc/passwd") ||
		!strings.Contains(page, ".IP 1. 4\nfirst\n") || !strings.Contains(page, ".TP\n\\fBtheme\\fR\ndefault: \\fBauto\\fR\n.br\nwhat: the colours | all\n") {
		t.Errorf("the man page:\n%s", page)
	}
}

// TestEnvironmentListsEveryVariable walks vaultdeck's Go source (not its
// tests, nor testdata) for the environment variables it reads: every
// string literal that is exactly a VAULTDECK_ name, the literal argument of
// every getenv or LookupEnv call, and the constants named *EnvVar. Every
// one must be in `vaultdeck help environment`, and every VAULTDECK_ name
// the topic lists must still be read.
func TestEnvironmentListsEveryVariable(t *testing.T) {
	own := regexp.MustCompile(`^VAULTDECK_[A-Z0-9_]+$`)
	read := map[string]string{}   // name: where it is read
	tested := map[string]string{} // the same, by a test only (the topic may list one: a walk's knob)
	root := filepath.Join("..", "..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		read := read
		if strings.HasSuffix(path, "_test.go") {
			read = tested
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && own.MatchString(s) {
					read[s] = path
				}
			case *ast.CallExpr:
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				}
				if l := strings.ToLower(name); (l == "getenv" || l == "lookupenv") && len(n.Args) == 1 {
					if lit, ok := n.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						read[s] = path
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if strings.HasSuffix(id.Name, "EnvVar") && i < len(n.Values) {
						if lit, ok := n.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							s, _ := strconv.Unquote(lit.Value)
							read[s] = path
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(read) < 10 {
		t.Fatalf("the walk found only %v: is the module root %s?", read, root)
	}
	topic, _ := Find("environment")
	doc := topic.Markdown()
	for name, where := range read {
		if !strings.Contains(doc, "`"+name+"`") {
			t.Errorf("%s reads %s, which `vaultdeck help environment` does not list", where, name)
		}
	}
	for _, name := range regexp.MustCompile(`VAULTDECK_[A-Z0-9_]+`).FindAllString(doc, -1) {
		if _, ok := read[name]; !ok && tested[name] == "" {
			t.Errorf("`vaultdeck help environment` lists %s, which no code reads any more", name)
		}
	}
}
