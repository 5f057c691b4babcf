package account

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kballard/go-shellquote"

	"github.com/vaultdeck/vaultdeck/api/localfile"
	"github.com/vaultdeck/vaultdeck/store"
)

// Saved views (issue 31) are kept in a file a person edits by hand, one
// view a line:
//
//	# NAME = the command after "vaultdeck", as the console's C shows it
//	purging-this-week = recycle-bin --purging-within 7d
//
// A line format rather than TOML or YAML: a saved view IS the equivalent
// command (C shows it, a person pastes it), so the file needs no second
// schema that could drift from the flags, and every mistake has one line
// to name. The words are read as a POSIX shell reads them (quotes,
// backslashes), with github.com/kballard/go-shellquote, so a line pasted
// from C reads back the same words.

// ViewsFileName is the file's name in the configuration directory.
const ViewsFileName = "views"

// ViewsPath is the saved views' file under p's configuration directory
// ($XDG_CONFIG_HOME/vaultdeck/views).
func ViewsPath(p store.Paths) string { return filepath.Join(p.Config, ViewsFileName) }

// SavedView is one line of the file.
type SavedView struct {
	Name string
	Args []string // the command's words, without "vaultdeck"
	Line int
}

// ViewsError is a mistake in the file, named by file and line.
type ViewsError struct {
	File string
	Line int
	Msg  string
}

func (e *ViewsError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// CheckViewName refuses a name that :NAME could not open or a shell
// would split: letters, digits, - and _, starting with a letter.
func CheckViewName(name string) error {
	if name == "" {
		return errors.New("a view needs a name")
	}
	for i, r := range name {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !(letter || i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '_')) {
			return fmt.Errorf("%q is not a view name: use letters, digits, - and _, starting with a letter", name)
		}
	}
	return nil
}

// ReadViews reads the file at path; none there is no view. check, when
// set, validates each view's words (the command line knows its commands
// and flags) and its error is reported at the view's line.
func ReadViews(path string, check func(args []string) error) ([]SavedView, error) {
	data, err := localfile.Read(path, localfile.SavedViews)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the saved views could not be read: %w", err)
	}
	return ParseViews(path, data, check)
}

// ParseViews reads the file's text; the first mistake is the error.
func ParseViews(path string, data []byte, check func(args []string) error) ([]SavedView, error) {
	var out []SavedView
	seen := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		fail := func(format string, a ...any) error {
			return &ViewsError{File: path, Line: n, Msg: fmt.Sprintf(format, a...)}
		}
		text := strings.TrimSpace(line)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		name, rest, ok := strings.Cut(text, "=")
		if !ok {
			return nil, fail("expected NAME = COMMAND (such as: purging-this-week = recycle-bin --purging-within 7d)")
		}
		name = strings.TrimSpace(name)
		if err := CheckViewName(name); err != nil {
			return nil, fail("%s", err)
		}
		if prev, dup := seen[name]; dup {
			return nil, fail("the view %q is already named on line %d", name, prev)
		}
		args, err := shellquote.Split(rest)
		if err != nil {
			return nil, fail("the command of %q cannot be read: %s", name, err)
		}
		if len(args) == 0 {
			return nil, fail("the view %q has no command", name)
		}
		if check != nil {
			if err := check(args); err != nil {
				return nil, fail("%s", err)
			}
		}
		seen[name] = n
		out = append(out, SavedView{Name: name, Args: args, Line: n})
	}
	return out, nil
}

// viewLine is one view as the file keeps it: the command quoted as C
// shows it, so that the file reads as the commands it runs.
func viewLine(name, command string) string { return name + " = " + command }

// SaveView keeps the view name (command is its words, shell-quoted) in the
// file at path: the line of a view of that name is replaced in place,
// else the view is added at the end; every other line (comments, a
// person's own order) stays as it was. The file is read again just before
// it is replaced, and a file with a mistake is not written over (the
// person editing it would lose their edit): the mistake is the error. The
// new file is written beside it and renamed over it, so a crash leaves the
// old file or the new one, never half of one.
func SaveView(path, name, command string, check func(args []string) error) error {
	if err := CheckViewName(name); err != nil {
		return err
	}
	if _, err := ParseViews(path, []byte(viewLine(name, command)), check); err != nil {
		return err
	}
	old, err := localfile.Read(path, localfile.SavedViews)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the saved views could not be read: %w", err)
	}
	views, err := ParseViews(path, old, nil)
	if err != nil {
		return fmt.Errorf("the file has a mistake; fix it first (nothing was written): %w", err)
	}
	lines := strings.Split(string(old), "\n")
	replaced := false
	for _, v := range views {
		if v.Name == name {
			lines[v.Line-1] = viewLine(name, command)
			replaced = true
		}
	}
	text := strings.Join(lines, "\n")
	if !replaced {
		if len(old) == 0 {
			text = "# vaultdeck saved views: NAME = the command after \"vaultdeck\" (the console's C shows it).\n# :NAME opens one in the console; vaultdeck view NAME [--csv|--json] runs it.\n"
		} else if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += viewLine(name, command) + "\n"
	}
	return replaceFile(path, old, []byte(text))
}

// replaceFile writes data to a new file beside path and renames it over
// path, unless path no longer holds old (someone saved it meanwhile).
func replaceFile(path string, old, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("the directory of the saved views could not be made: %w", err)
	}
	f, err := os.CreateTemp(dir, ".views-*")
	if err != nil {
		return fmt.Errorf("the saved views could not be written: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename there is nothing left to remove
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("the saved views could not be written: %w", err)
	}
	now, err := localfile.Read(path, localfile.SavedViews)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the saved views could not be read: %w", err)
	}
	if !bytes.Equal(now, old) {
		return fmt.Errorf("%s changed while the view was being saved (edited by hand?); nothing was written: save again", path)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("the saved views could not be replaced: %w", err)
	}
	return nil
}

// ViewQuery is a saved view's command as the command tree reads its line:
// the command's path and its arguments, and the flags given, in order. The
// console opens it as the query of the view that shows those rows.
type ViewQuery struct {
	Command []string
	Flags   []ViewFlag
	// Globals are the global flags the view keeps (ViewGlobals).
	Globals []ViewFlag
}

// ViewGlobals are the global flags a saved view keeps: where its rows
// come from, the profile and the endpoint, so that a view saved from a
// console on a staging service or another profile lists that one's rows
// (issue 42). Any other global (an output format) is given when it runs.
func ViewGlobals() []string { return []string{"profile", "base-url", "region"} }

// ViewFlag is one flag of a ViewQuery: --Name Value, or --Name alone when
// Switch.
type ViewFlag struct {
	Name, Value string
	Switch      bool
}

// ViewCommand is a listing a saved view may name, and the console's route
// that shows its rows ("": none, the view runs headless only).
type ViewCommand struct {
	Command []string
	Route   string
}

// ViewCommands are the listings a saved view may name, in the order the
// command line lists them: the one list the command line (which views it
// accepts) and the console (which route opens one) both read.
func ViewCommands() []ViewCommand {
	return []ViewCommand{
		{[]string{"recycle-bin"}, "bin"}, {[]string{"projects"}, "projects"}, {[]string{"users"}, "project"},
		{[]string{"files"}, "project"}, {[]string{"status"}, "files"}, {[]string{"audit"}, "audit"},
		{[]string{"audit", "stats"}, "activity"}, {[]string{"access", "people"}, "access"}, {[]string{"access", "user"}, "access"},
		{[]string{"access", "project"}, ""}, {[]string{"access", "diff"}, "access"},
		{[]string{"access", "receipts"}, "receipts"}, {[]string{"matters", "receipts"}, "matters"}, {[]string{"matters", "receipt"}, "matters"},
		{[]string{"person"}, "person"},
	}
}

// RouteCommands are the commands of ViewCommands whose rows route shows.
func RouteCommands(route string) [][]string {
	var out [][]string
	for _, c := range ViewCommands() {
		if c.Route == route {
			out = append(out, c.Command)
		}
	}
	return out
}
