package uploadview

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

// completionMsg answers a Tab: the input it completed and the candidates.
type completionMsg struct {
	View    page.ID
	For     string
	Matches []string // full paths; folders end in a separator
}

// Target routes the answer to the view that asked.
func (m completionMsg) Target() page.ID { return m.View }

// completeCmd lists the directory of typed and the entries starting with
// its last element (a command: reading a directory is IO). Hidden entries
// are offered only when the typed name starts with a dot.
func completeCmd(view page.ID, typed string) tea.Cmd {
	return func() tea.Msg {
		msg := completionMsg{View: view, For: typed}
		expanded := expandHome(typed)
		dir, base := filepath.Split(expanded)
		list := dir
		if list == "" {
			list = "."
		}
		entries, err := os.ReadDir(list)
		if err != nil {
			return msg
		}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
				continue
			}
			full := dir + name
			if e.IsDir() {
				full += string(filepath.Separator)
			}
			msg.Matches = append(msg.Matches, full)
		}
		sort.Strings(msg.Matches)
		return msg
	}
}

// completion is what a Tab does with the candidates: the longest common
// prefix when it extends the input, and the candidates to show when it
// does not.
func completion(typed string, matches []string) (string, []string) {
	if len(matches) == 0 {
		return typed, nil
	}
	p := matches[0]
	for _, m := range matches[1:] {
		for !strings.HasPrefix(m, p) {
			p = p[:len(p)-1]
		}
	}
	if expanded := expandHome(typed); len(p) > len(expanded) {
		if expanded != typed { // keep the ~ the user typed
			p = typed + p[len(expanded):]
		}
		return p, nil
	}
	return typed, matches
}

// expandHome turns a leading ~/ into the home directory.
func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return home + p[1:]
		}
	}
	return p
}
