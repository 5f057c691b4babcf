package upload

// When an answer is not one ID a file, the project's listing is asked what
// the answer leaves open, for the names concerned only:
//   - which of several files of one name an ID is (the listing gives its
//     size, get_files does not);
//   - whether a file that got no ID under skip was skipped for its name.
//     The service leaves a file of an existing name alone and gives it no
//     ID, but a missing ID alone does not say that: the answer may have
//     lost it. The file is skipped only when the listing shows a file of its
//     name that is not it: another file of the batch, one uploaded before
//     the request began (less ClockSkew), or, when the answer is otherwise
//     whole (each of its IDs one file's), any.

import (
	"context"
	"path"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// namePages bounds the pages read for one name: the listing's name filter
// is a substring, so a short name may match many files, and a listing
// that goes on is not read for ever.
const namePages = 5

// existedBefore is the moment before which a listed file cannot be this
// request's: the request's start less ClockSkew, or now less ClockSkew if
// the clock went back since it began.
func existedBefore(began, now time.Time) time.Time {
	if now.Before(began) {
		began = now
	}
	return began.Add(-ClockSkew)
}

// namesakes lists the project's files whose names fit one of names (under
// keep, also renamed with a " (N)" suffix), in the fewer requests of two
// ways: the whole listing, when its pages (the first page's total_count
// says how many) are no more than the names; else one name-filtered
// listing per name.
func (r *Runner) namesakes(ctx context.Context, projectID string, names []string, mode string) ([]api.ProjectFile, error) {
	var out []api.ProjectFile
	note := func(files []api.ProjectFile) {
		for _, f := range files {
			for _, n := range names {
				if sameName(f.Name, n, mode) {
					out = append(out, f)
					break
				}
			}
		}
	}
	filters := map[string]bool{}
	for _, n := range names {
		filters[filterOf(n, mode)] = true
	}
	if len(filters) > 1 {
		whole, err := r.listed(ctx, projectID, "", len(filters), note)
		if err != nil || whole {
			return out, err
		}
		out = out[:0]
	}
	for f := range filters {
		if _, err := r.listed(ctx, projectID, f, namePages, note); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// filterOf is the listing's name filter that finds a file's namesakes: its
// name, or under keep its stem (which the renamed "stem (1).ext" holds too).
func filterOf(name, mode string) string {
	if mode == string(api.DuplicateKeep) {
		if stem := strings.TrimSuffix(name, path.Ext(name)); stem != "" {
			return stem
		}
	}
	return name
}

// listed reads the project's listing (name-filtered when name is set), at
// most maxPages pages, handing each page's files to note; whole says it
// read the listing to its end. Without a name, it reads past the first
// page only when the first page's total_count says the rest fits in
// maxPages.
func (r *Runner) listed(ctx context.Context, projectID, name string, maxPages int, note func([]api.ProjectFile)) (whole bool, err error) {
	g := api.NewFilePageGuard()
	q := api.FileQuery{Name: name, Limit: api.MaxFileLimit}
	for page := 1; page <= maxPages; page++ {
		p, err := r.API.ProjectFilesPage(ctx, projectID, q)
		if err != nil {
			return false, err
		}
		files, err := api.Fresh(g, page, p.Files, func(f *api.ProjectFile) string { return f.ID })
		if err != nil {
			return false, err
		}
		note(files)
		next := ""
		if p.Pagination.HasMore && p.Pagination.NextCursor != nil {
			next = *p.Pagination.NextCursor
		}
		if next == "" {
			return true, nil
		}
		if page == 1 && name == "" {
			total := int64(p.Pagination.TotalCount)
			if total <= 0 || (total+api.MaxFileLimit-1)/api.MaxFileLimit > int64(maxPages) {
				return false, nil
			}
		}
		if err := g.Cursor(page, next); err != nil {
			return false, err
		}
		q.Cursor = next
	}
	return false, nil
}
