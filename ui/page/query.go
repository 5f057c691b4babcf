package page

import (
	"strings"

	"al.essio.dev/pkg/shellescape"
)

// Query is what a view lists, said as the headless command that lists the
// same rows: the console and the command line answer the same questions,
// and a view's question can be copied into a script or saved by name
// (issue 31). Each table view exposes its own through Querier; one
// function (Line) says it as a shell line, so quoting is done once.
type Query struct {
	// Command is the command's path and its positional arguments:
	// ["recycle-bin"], ["files", "PROJECT-ID"].
	Command []string
	// Flags are the filters in effect, in the order the view states them.
	Flags []Flag
	// Globals are the connection's flags (--profile, --base-url, --region)
	// that send the command where the view's rows came from; the root
	// adds them (a view knows no connection), after the view's own flags.
	Globals []Flag
	// Unsaid names what narrows the rows on screen that no flag says (a
	// `/` text filter that is no flag's, a grouping): the command lists
	// other rows, the console says so beside the command, and V refuses
	// to save such a view, naming it (issue 42).
	Unsaid []string
	// Order names an order on screen the command does not print in (a
	// sort by a column): the same rows, so C says it and V saves.
	Order []string
	// Format is the output format C's line ends with (nil: --csv, what a
	// script reads of a listing); a saved view keeps none. A report is
	// no listing: `person EMAIL --csv` needs the part (--section).
	Format []string
}

// Flag is one flag of a Query: --Name Value, or --Name alone when Switch.
type Flag struct {
	Name, Value string
	Switch      bool
}

// Querier is a page whose rows a headless command lists.
type Querier interface{ Query() Query }

// With appends --name value when value is not empty.
func (q *Query) With(name, value string) {
	if value != "" {
		q.Flags = append(q.Flags, Flag{Name: name, Value: value})
	}
}

// Switch appends --name when on.
func (q *Query) Switch(name string, on bool) {
	if on {
		q.Flags = append(q.Flags, Flag{Name: name, Switch: true})
	}
}

// Value is the value of flag name, and whether it was given (a switch
// gives "true").
func (q Query) Value(name string) (string, bool) {
	for _, f := range q.Flags {
		if f.Name == name {
			if f.Switch {
				return "true", true
			}
			return f.Value, true
		}
	}
	return "", false
}

// Args is the command line after the program's name, without an output
// format: what a saved view keeps.
func (q Query) Args() []string {
	out := append([]string(nil), q.Command...)
	for _, f := range q.Flags {
		if f.Switch {
			out = append(out, "--"+f.Name)
			continue
		}
		out = append(out, "--"+f.Name, f.Value)
	}
	for _, f := range q.Globals {
		out = append(out, "--"+f.Name, f.Value)
	}
	return out
}

// Line is q as one shell line: "vaultdeck ARGS" and then extra (an output
// format, "--csv"). Every word is quoted for a POSIX shell where it needs
// it, so a value a server sent (a name with spaces, quotes, `$(…)`, a
// leading #) stays one word and runs nothing.
func (q Query) Line(extra ...string) string {
	return strings.TrimSpace("vaultdeck " + q.Quoted(extra...))
}

// Quoted is the words after the program's name, quoted as Line quotes
// them: what a saved view's line keeps.
func (q Query) Quoted(extra ...string) string {
	return shellescape.QuoteCommand(append(q.Args(), extra...))
}
