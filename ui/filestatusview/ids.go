package filestatusview

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// ParseIDs is api.ParseIDs: one reader of pasted IDs for the console and
// the command line.
func ParseIDs(s string) []string { return api.ParseIDs(s) }

// parseArg reads the view's argument (filestatus.ParseArg): IDs, each
// optionally with @EPOCH_SECONDS, its upload time as the project listing
// gave it (the Files tab hands them over so, and C says them so).
func parseArg(s string) ([]string, map[string]time.Time) { return filestatus.ParseArg(s) }

// CheckArg refuses an argument of :files holding anything that is not a
// file ID, before the page opens and before any request: the headless
// `status` does the same with exit 2. Empty is fine (the prompt opens).
func CheckArg(arg string) error {
	ids, _ := parseArg(arg)
	return checkIDs(ids)
}

// checkIDs names the values that are not UUIDs, in one line: the first
// few, each cut to a readable length (a paste can hold anything).
func checkIDs(ids []string) error {
	var bad []string
	for _, id := range ids {
		if !api.IsUUID(id) {
			bad = append(bad, id)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	const shown = 3
	names := make([]string, 0, shown)
	for _, b := range bad[:min(len(bad), shown)] {
		names = append(names, strconv.Quote(ansi.Truncate(sanitize.Line(b), 40, "…")))
	}
	list := strings.Join(names, ", ")
	if len(bad) > shown {
		list += fmt.Sprintf(" and %d more", len(bad)-shown)
	}
	if len(bad) == 1 {
		return fmt.Errorf("%s is not a file ID (a UUID like 123e4567-e89b-12d3-a456-426614174000)", list)
	}
	return fmt.Errorf("%s are not file IDs (UUIDs like 123e4567-e89b-12d3-a456-426614174000)", list)
}
