package upload

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
	"github.com/vaultdeck/vaultdeck/store"
)

// answerRig is a fault server whose vault keeps what it was sent, a
// client, a store and a folder of files.
type answerRig struct {
	t      *testing.T
	srv    *faultserver.Server
	client *api.Client
	store  *store.Store
	dir    string
}

func newAnswerRig(t *testing.T, fault faultserver.Fault, names ...string) *answerRig {
	t.Helper()
	srv := faultserver.Start(fault)
	t.Cleanup(srv.Close)
	c, err := api.New(api.Config{BaseURL: srv.URL, Token: api.StaticToken("tok"), Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("the bytes of "+n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &answerRig{t: t, srv: srv, client: c, store: st, dir: dir}
}

func (r *answerRig) run(mode api.DuplicateMode) Outcome {
	r.t.Helper()
	out, err := (&Runner{API: r.client, Store: r.store, Profile: "default"}).Upload(context.Background(), faultserver.ProjectID, Walk([]string{r.dir}), mode)
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

func (r *answerRig) resume() Outcome {
	r.t.Helper()
	out, err := (&Runner{API: r.client, Store: r.store, Profile: "default"}).Resume(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

// truth is, by name, the ID the fault server's vault gave each file it
// stored.
func (r *answerRig) truth() map[string]string {
	m := map[string]string{}
	for _, f := range r.srv.Files() {
		m[f.Name] = f.ID
	}
	return m
}

// journaled is, by name, the file ID the journal holds for each file it
// says was uploaded; a name held twice is an error.
func (r *answerRig) journaled() map[string]string {
	r.t.Helper()
	runs, err := r.store.UploadRuns("default")
	if err != nil {
		r.t.Fatal(err)
	}
	m := map[string]string{}
	for _, run := range runs {
		files, _ := r.store.RunFiles(run.ID)
		for _, f := range files {
			if f.State != store.FileUploaded {
				continue
			}
			if _, dup := m[f.Name]; dup {
				r.t.Errorf("the journal holds %s as uploaded twice", f.Name)
			}
			m[f.Name] = f.FileID
		}
	}
	return m
}

func names(files []store.JournalFile) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name)
	}
	sort.Strings(out)
	return out
}

// TestAnAnswerProvesOnlyWhatItSays: an upload's outcome per file comes
// from the answer matched one to one. A repeated or missing ID leaves its
// files unproven (the run is partial) and the resume reconciles them
// against the listing; an ID no file can be matched to is named; a file is
// skipped as existing only when the listing shows that name from before
// the request.
func TestAnAnswerProvesOnlyWhatItSays(t *testing.T) {
	t.Parallel()
	// Every file ends with the ID the service truly gave it, once.
	resumed := func(t *testing.T, r *answerRig, want ...string) {
		t.Helper()
		out := r.resume()
		if out.Partial() || len(out.Errors) > 0 {
			t.Errorf("the resume left %v unproven, %d batches, errors %q", names(out.Unproven), out.Unfinished, out.Errors)
		}
		got, truth := r.journaled(), r.truth()
		for _, n := range want {
			if got[n] == "" || got[n] != truth[n] {
				t.Errorf("after the resume the journal holds %s as %q; the service stored it as %q", n, got[n], truth[n])
			}
		}
	}

	t.Run("one ID repeated for three files", func(t *testing.T) {
		t.Parallel()
		r := newAnswerRig(t, faultserver.UploadRepeatID, "a.txt", "b.txt", "c.txt")
		out := r.run(api.DuplicateSkip)
		if len(out.Uploaded) > 1 || !out.Partial() {
			t.Fatalf("one ID for three files: %v uploaded, %v unproven, partial %v; want at most one uploaded and the others unproven",
				names(out.Uploaded), names(out.Unproven), out.Partial())
		}
		if len(out.Uploaded)+len(out.Unproven) != 3 {
			t.Errorf("uploaded %v, unproven %v: every file is one or the other", names(out.Uploaded), names(out.Unproven))
		}
		// `vaultdeck uploads RUN` says so too: sent, not "not sent".
		files, _ := r.store.RunFiles(out.RunIDs[0])
		for _, f := range files {
			if word, why := Result(f); f.State == store.FilePending && (word != store.FileUnproven || !strings.Contains(why, "3 times")) {
				t.Errorf("%s: the journal's result is %q (%s)", f.Name, word, why)
			}
		}
		resumed(t, r, "a.txt", "b.txt", "c.txt")
	})

	t.Run("two IDs for three files that get_files does not know", func(t *testing.T) {
		t.Parallel()
		r := newAnswerRig(t, faultserver.UploadFewerIDs, "a.txt", "b.txt", "c.txt")
		out := r.run(api.DuplicateSkip)
		if len(out.Skipped) > 0 || len(out.Unproven) != 3 || !out.Partial() {
			t.Fatalf("skipped %v, unproven %v: the listing shows none of these names from before the request, so none was skipped as existing",
				names(out.Skipped), names(out.Unproven))
		}
		if ids := strings.Join(out.Errors, "\n"); !strings.Contains(ids, "9a1c2d3e-0000-4000-8000-000000000001") || !strings.Contains(ids, "9a1c2d3e-0000-4000-8000-000000000002") {
			t.Errorf("the two IDs no file could be matched to are not named: %q", out.Errors)
		}
		resumed(t, r, "a.txt", "b.txt", "c.txt")
	})

	t.Run("a file skipped because its name exists is proven by the listing", func(t *testing.T) {
		t.Parallel()
		// The service skips Share Purchase.pdf (listed since 2025), stores
		// a.txt and b.txt, and answers with a.txt's ID alone, which
		// get_files does not know: an answer that is not whole, so only a
		// file of the name from before the request proves a skip.
		r := newAnswerRig(t, faultserver.UploadFewerIDs, "Share Purchase.pdf", "a.txt", "b.txt")
		out := r.run(api.DuplicateSkip)
		if got := names(out.Skipped); len(got) != 1 || got[0] != "Share Purchase.pdf" {
			t.Errorf("skipped %v, want Share Purchase.pdf alone (the listing shows it from 2025)", got)
		}
		if got := names(out.Unproven); len(got) != 2 || got[0] != "a.txt" || got[1] != "b.txt" {
			t.Errorf("unproven %v, want a.txt and b.txt (the listing shows them only from after the request began)", got)
		}
		resumed(t, r, "a.txt", "b.txt")
	})

	t.Run("two IDs more than files", func(t *testing.T) {
		t.Parallel()
		r := newAnswerRig(t, faultserver.UploadExtraIDs, "a.txt", "b.txt", "c.txt")
		out := r.run(api.DuplicateSkip)
		if len(out.Uploaded) != 3 {
			t.Errorf("uploaded %v, want all three: get_files names each", names(out.Uploaded))
		}
		if ids := strings.Join(out.Errors, "\n"); !strings.Contains(ids, "9e1c2d3e-0000-4000-8000-000000000001") || !strings.Contains(ids, "9e1c2d3e-0000-4000-8000-000000000002") {
			t.Errorf("the extra IDs are not named: %q", out.Errors)
		}
		got, truth := r.journaled(), r.truth()
		for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
			if got[n] != truth[n] {
				t.Errorf("%s journaled as %q, stored as %q", n, got[n], truth[n])
			}
		}
	})

	t.Run("an ID that is not a UUID", func(t *testing.T) {
		t.Parallel()
		r := newAnswerRig(t, faultserver.UploadNotUUID, "a.txt", "b.txt", "c.txt")
		out := r.run(api.DuplicateReplace)
		if strings.Contains(strings.Join(names(out.Uploaded), ","), "a.txt") || !strings.Contains(strings.Join(out.Errors, "\n"), "file-1") {
			t.Fatalf("uploaded %v, errors %q: the file whose ID is not one is unproven and the ID named", names(out.Uploaded), out.Errors)
		}
		for _, f := range out.Uploaded {
			if !api.IsUUID(f.FileID) {
				t.Errorf("%s recorded with the ID %q", f.Name, f.FileID)
			}
		}
		resumed(t, r, "a.txt", "b.txt", "c.txt")
	})

	t.Run("a 200 whose answer holds errors too", func(t *testing.T) {
		t.Parallel()
		r := newAnswerRig(t, faultserver.ErrorsInside, "a.txt", "b.txt")
		out := r.run(api.DuplicateSkip)
		if !strings.Contains(strings.Join(out.Errors, "\n"), "some files were not stored") {
			t.Errorf("errors %q: the answer's own errors are not said", out.Errors)
		}
		got, truth := r.journaled(), r.truth()
		for _, n := range []string{"a.txt", "b.txt"} {
			if got[n] != truth[n] {
				t.Errorf("%s journaled as %q, stored as %q: get_files names each", n, got[n], truth[n])
			}
		}
	})
}
