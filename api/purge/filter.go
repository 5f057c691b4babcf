package purge

import (
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Filter is what a look at the recycle bin is narrowed to, defined once
// for `vaultdeck recycle-bin`, the console's bin and saved views: the
// service narrows by name and client matter (Query), vaultdeck by who
// deleted an entry and when it purges (Keep). Each field is one flag
// (FilterFlags), read by Set wherever it was written.
type Filter struct {
	Name         string        // projects whose name contains it (the service's)
	ClientMatter string        // projects of one client matter (the service's)
	DeletedBy    string        // entries deleted by this e-mail, exactly
	Within       time.Duration // entries purged within it of now, overdue ones too; 0: any
}

// The filter's flag names, as the command line, saved views and the
// console's equivalent command write them.
const (
	FlagName         = "name"
	FlagClientMatter = "client-matter"
	FlagDeletedBy    = "deleted-by"
	FlagWithin       = "purging-within"
)

// FilterFlag is one flag of the filter: its name and its help (the
// argument's name in backquotes, as pflag reads it).
type FilterFlag struct{ Name, Usage string }

// FilterFlags are the filter's flags in the order a query writes them
// (the console's equivalent command).
func FilterFlags() []FilterFlag {
	return []FilterFlag{
		{FlagName, "only projects whose name contains `S`"},
		{FlagClientMatter, "only projects of the client matter with this `UUID`"},
		{FlagWithin, "only entries purged within `D` (7d, 36h; overdue ones included and marked)"},
		{FlagDeletedBy, "only entries deleted by the user with e-mail `EMAIL` (exactly)"},
	}
}

// Set reads one flag's value into f; a window that ParseWindow refuses is
// an error naming why.
func (f *Filter) Set(name, value string) error {
	switch name {
	case FlagName:
		f.Name = value
	case FlagClientMatter:
		f.ClientMatter = strings.TrimSpace(value)
	case FlagDeletedBy:
		f.DeletedBy = value
	case FlagWithin:
		d, err := ParseWindow(value)
		if err != nil {
			return err
		}
		f.Within = d
	default:
		return fmt.Errorf("the recycle bin has no --%s", name)
	}
	return nil
}

// Get is one flag's value as Set reads it ("" when not set).
func (f Filter) Get(name string) string {
	switch name {
	case FlagName:
		return f.Name
	case FlagClientMatter:
		return f.ClientMatter
	case FlagDeletedBy:
		return f.DeletedBy
	case FlagWithin:
		if f.Within > 0 {
			return FormatWindow(f.Within)
		}
	}
	return ""
}

// Check refuses a client matter that is not a UUID: the service would
// answer it with the whole bin, as if none was given.
func (f Filter) Check() error {
	if f.ClientMatter != "" && !api.IsUUID(f.ClientMatter) {
		return fmt.Errorf("%q is not a client-matter ID (a UUID like 123e4567-e89b-12d3-a456-426614174000)", f.ClientMatter)
	}
	return nil
}

// Query is the service's part of the filter.
func (f Filter) Query() api.RecycleBinQuery {
	return api.RecycleBinQuery{Name: f.Name, ClientMatterID: f.ClientMatter}
}

// Local reports whether vaultdeck narrows what the service sends (so a
// count of what is shown is not the service's total).
func (f Filter) Local() bool { return f.DeletedBy != "" || f.Within > 0 }

// Keep is vaultdeck's part: whether e passes the deleter and the purge
// window at now, and whether it is overdue (scheduled in the past).
func (f Filter) Keep(e *api.RecycleBinEntry, now time.Time) (kept, overdue bool) {
	if f.DeletedBy != "" && e.DeletedByUserEmail != f.DeletedBy {
		return false, false
	}
	if f.Within == 0 {
		_, overdue := Within(e.RecycleBinPurgedScheduledAt.Time, now, 0)
		return true, overdue
	}
	return Within(e.RecycleBinPurgedScheduledAt.Time, now, f.Within)
}

// Kept is Keep without the overdue mark.
func (f Filter) Kept(e *api.RecycleBinEntry, now time.Time) bool {
	kept, _ := f.Keep(e, now)
	return kept
}
