package upload

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// answer is what one batch's answer proves, file by file: an outcome for
// every file sent, in order (uploaded, skipped, or still pending with the
// reason it is unproven), and the IDs of the answer no file could be
// matched to, each with why.
type answer struct {
	outcomes []store.FileOutcome
	unproven int
	stray    []string
}

// match pairs the file IDs of a batch's answer with the files sent, one to
// one, and proves nothing more than the answer and the service's own
// listings show.
//
// An answer with one distinct UUID per file is read in order. Any other
// (fewer IDs, as under skip when a file of the name exists, more IDs, an ID
// repeated or not a UUID, an "errors" member beside them) is matched by name: get_files says each distinct
// ID's name, and a file takes an ID only when it is the one file of the
// batch that name fits and that ID the one whose name fits it (files of one
// name are told apart by the size the listing gives each ID). A file left
// without an ID under skip is skipped only when the listing shows a file of
// its name that is not it (exists.go); any other is unproven: it stays
// pending in its batch, which stays open for `upload --resume` to
// reconcile against the listing (decide). An ID no file took is named.
func (r *Runner) match(ctx context.Context, b store.JournalBatch, began time.Time, sent []store.JournalFile, res *api.UploadResult) (answer, error) {
	a := answer{outcomes: make([]store.FileOutcome, len(sent))}
	ids := res.FileIDs
	faults := res.Faults()
	if faults != "" {
		a.stray = append(a.stray, "and beside them errors: "+quoted(faults))
	}
	if faults == "" && oneEach(ids, len(sent)) {
		for i, f := range sent {
			a.outcomes[i] = store.FileOutcome{ID: f.ID, State: store.FileUploaded, FileID: ids[i]}
		}
		return a, nil
	}
	mode := b.Run.Mode
	var valid []string
	times := map[string]int{}
	for _, id := range ids {
		k := strings.ToLower(id)
		times[k]++
		switch {
		case !api.IsUUID(id):
			if times[k] == 1 {
				a.stray = append(a.stray, fmt.Sprintf("%q, which is not a file ID (a UUID)", quoted(id)))
			}
		case times[k] == 1:
			valid = append(valid, id)
		}
	}
	var cands []api.ProjectFile
	if len(valid) > 0 {
		recs, err := r.API.GetFiles(ctx, valid)
		if err != nil {
			return answer{}, fmt.Errorf("the service returned %s for %s and their names could not be read: %w", plural.Count(len(ids), "file ID"), plural.Count(len(sent), "file"), err)
		}
		for i, it := range recs {
			if d := it.Value; d.Failed() {
				a.stray = append(a.stray, fmt.Sprintf("%s, which get_files does not know (%s)", valid[i], quoted(d.Error)))
			} else {
				cands = append(cands, api.ProjectFile{ID: valid[i], Name: d.FileName})
			}
		}
	}
	taken := pairs(cands, sent, mode, nil)
	why := unprovenWhy(ids, len(sent), times)
	// The listing, for the names left open: which of several files of a
	// name an ID is, and under skip whether a name exists.
	var listed []api.ProjectFile
	var listErr error
	if open := openNames(cands, sent, taken, mode); len(open) > 0 {
		if listed, listErr = r.namesakes(ctx, b.Run.ProjectID, open, mode); listErr == nil {
			taken = pairs(cands, sent, mode, sizesOf(listed))
		} else {
			why += fmt.Sprintf("; the project's listing, which would tell, could not be read (%v)", listErr)
		}
	}
	mine := map[string]bool{} // the IDs the batch's files took
	for _, c := range taken {
		mine[strings.ToLower(c.ID)] = true
	}
	for _, c := range cands {
		if !mine[strings.ToLower(c.ID)] {
			a.stray = append(a.stray, fmt.Sprintf("%s, named %q, which no one file of the batch can be matched to", c.ID, quoted(c.Name)))
		}
	}
	// The answer is whole when every ID it gave is one file's: then its
	// silence on a file is believed once the listing shows the name.
	whole := len(a.stray) == 0 && len(valid) == len(ids)
	before := existedBefore(began, r.now())
	for i, f := range sent {
		if c, ok := taken[i]; ok {
			a.outcomes[i] = store.FileOutcome{ID: f.ID, State: store.FileUploaded, FileID: c.ID}
			continue
		}
		if mode == string(api.DuplicateSkip) && listErr == nil {
			if e, ok := existsBesides(listed, f.Name, mine, whole, before); ok {
				a.outcomes[i] = store.FileOutcome{ID: f.ID, State: store.FileSkipped, Reason: "a file of this name already exists (mode skip): " + e}
				continue
			}
		}
		reason := why
		switch {
		case mode != string(api.DuplicateSkip) || listErr != nil:
		case whole:
			reason += "; nor proven skipped: the project lists no file of its name"
		default:
			reason += "; nor proven skipped: the project lists no other file of its name"
		}
		a.outcomes[i] = store.FileOutcome{ID: f.ID, State: store.FilePending, Reason: reason + "; `vaultdeck upload --resume` checks the project's listing"}
		a.unproven++
	}
	return a, nil
}

// openNames are the names of the files no candidate was matched to: their
// namesakes in the listing tell an ID of several files of one name apart,
// or (under skip) whether the name exists.
func openNames(cands []api.ProjectFile, sent []store.JournalFile, taken map[int]api.ProjectFile, mode string) []string {
	var out []string
	seen := map[string]bool{}
	for i, f := range sent {
		if _, ok := taken[i]; ok || seen[f.Name] {
			continue
		}
		fits := mode == string(api.DuplicateSkip)
		for _, c := range cands {
			fits = fits || sameName(c.Name, f.Name, mode)
		}
		if fits {
			seen[f.Name] = true
			out = append(out, f.Name)
		}
	}
	return out
}

// sizesOf is the listed size of each file ID (lower case).
func sizesOf(listed []api.ProjectFile) map[string]int64 {
	m := make(map[string]int64, len(listed))
	for _, f := range listed {
		m[strings.ToLower(f.ID)] = int64(f.Size)
	}
	return m
}

// existsBesides finds, among the listed files, one named name that is not
// the file itself: another file's of the batch (mine), one uploaded before
// before, or, when the answer is whole, any. It says what it found.
func existsBesides(listed []api.ProjectFile, name string, mine map[string]bool, whole bool, before time.Time) (string, bool) {
	for _, l := range listed {
		if l.Name != name {
			continue
		}
		at := l.UploadedAt.Time
		switch {
		case mine[strings.ToLower(l.ID)]:
			return "the project lists " + l.ID + ", another file of this upload", true
		case !at.IsZero() && at.Before(before):
			return "the project lists one uploaded " + at.UTC().Format(time.DateTime), true
		case whole:
			return "the project lists it", true
		}
	}
	return "", false
}

// oneEach reports whether ids are n distinct UUIDs: an answer read in
// order, one ID a file.
func oneEach(ids []string, n int) bool {
	if len(ids) != n {
		return false
	}
	seen := make(map[string]struct{}, n)
	for _, id := range ids {
		if !api.IsUUID(id) {
			return false
		}
		k := strings.ToLower(id)
		if _, dup := seen[k]; dup {
			return false
		}
		seen[k] = struct{}{}
	}
	return true
}

// unprovenWhy says how the answer failed to be one ID a file.
func unprovenWhy(ids []string, files int, times map[string]int) string {
	var rep []string
	for _, id := range ids {
		if n := times[strings.ToLower(id)]; n > 1 {
			rep = append(rep, fmt.Sprintf("%s %d times", quoted(id), n))
			times[strings.ToLower(id)] = 0 // said once
		}
	}
	what := fmt.Sprintf("the answer gave %s for %s", plural.Count(len(ids), "file ID"), plural.Count(files, "file"))
	if len(rep) > 0 {
		what += " (" + strings.Join(rep, ", ") + ")"
	}
	return what + ", none of them this file's alone"
}

// pairs matches files to candidates by name, one to one: sent[i] takes c
// when c is the one candidate left whose name fits it and it the one file
// left that c's name fits, where sizes (by ID, from the listing; nil:
// none) narrow the files a candidate fits to those of its size. Each match
// leaves fewer to choose from, so it goes round until nothing more pairs.
func pairs(cands []api.ProjectFile, sent []store.JournalFile, mode string, sizes map[string]int64) map[int]api.ProjectFile {
	out := map[int]api.ProjectFile{}
	used := map[int]bool{} // candidates taken
	fits := func(j, i int) bool {
		c, f := cands[j], sent[i]
		if !sameName(c.Name, f.Name, mode) {
			return false
		}
		size, known := sizes[strings.ToLower(c.ID)]
		return !known || size == f.Size
	}
	for progress := true; progress; {
		progress = false
		for i := range sent {
			if _, ok := out[i]; ok {
				continue
			}
			only, n := -1, 0
			for j := range cands {
				if !used[j] && fits(j, i) {
					only, n = j, n+1
				}
			}
			if n != 1 {
				continue
			}
			files := 0
			for k := range sent {
				if _, ok := out[k]; !ok && fits(only, k) {
					files++
				}
			}
			if files == 1 {
				out[i], used[only] = cands[only], true
				progress = true
			}
		}
	}
	return out
}

// quoted bounds a string of the service's that a reason quotes (the
// interfaces clean it when they show it).
func quoted(s string) string {
	if utf8.RuneCountInString(s) <= 80 {
		return s
	}
	return string([]rune(s)[:80]) + "…"
}

var keepSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \(\d+\)$`) }) // on first use, not at start-up

func sameName(got, want, mode string) bool {
	if got == want {
		return true
	}
	if mode != string(api.DuplicateKeep) {
		return false
	}
	ext := path.Ext(want)
	stem, gotExt := strings.TrimSuffix(got, path.Ext(got)), path.Ext(got)
	return gotExt == ext && strings.TrimSuffix(want, ext) == keepSuffix().ReplaceAllString(stem, "") && keepSuffix().MatchString(stem)
}
