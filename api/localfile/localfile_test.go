package localfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

var kinds = []Kind{CABundle, HostKey, AuthorizedKeys, Token, Credential, SavedViews, MatterFile, UploadFile, ConfigFile, AccessFile}

// outcome is what reading a case gives: the bytes, or the error it wraps.
type outcome struct {
	data []byte
	err  error // nil, or the Err value (ErrNotRegular, ...) or system error expected
}

// within fails the test when f has not returned in a generous while: the
// cases here must return at once, and one that blocks (a FIFO opened for
// reading, /dev/zero read to the end) would otherwise hang the suite.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: still reading after 20 s (blocked on a FIFO, or reading without a bound)", what)
	}
}

func TestEveryKindOfFileIsReadWithABoundAndWithoutBlocking(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	content := []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
	regular := write("regular", content)
	empty := write("empty", nil)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	targets := map[string]string{"regular": regular, "FIFO": fifo, "/dev/zero": "/dev/zero", "folder": folder, "socket": sock}

	for _, k := range kinds {
		// A sparse file one byte over the bound: refused from its size,
		// before a byte is read, so even 500 MB costs nothing.
		big := filepath.Join(dir, "big-"+k.Name())
		if err := os.WriteFile(big, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(big, k.Max()+1); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name, path string
			want       outcome
		}{
			{"regular", regular, outcome{data: content}},
			{"empty", empty, outcome{data: []byte{}}},
			{"too large", big, outcome{err: ErrTooLarge}},
			{"FIFO", fifo, outcome{err: ErrNotRegular}},
			{"/dev/zero", "/dev/zero", outcome{err: ErrNotRegular}},
			{"folder", folder, outcome{err: ErrNotRegular}},
			{"socket", sock, outcome{err: ErrNotRegular}},
			{"missing", filepath.Join(dir, "missing"), outcome{err: fs.ErrNotExist}},
		}
		for name, to := range targets {
			want := outcome{err: ErrNotRegular}
			switch {
			case k.links() != followLinks:
				want = outcome{err: ErrLink}
			case name == "regular":
				want = outcome{data: content}
			}
			p := filepath.Join(dir, "link-to-"+strings.ReplaceAll(name, "/", "")+"-"+k.Name())
			if err := os.Symlink(to, p); err != nil {
				t.Fatal(err)
			}
			cases = append(cases, struct {
				name, path string
				want       outcome
			}{"link to " + name, p, want})
		}
		for _, c := range cases {
			within(t, k.Name()+", "+c.name, func() {
				got, err := Read(c.path, k)
				check(t, k.Name()+", "+c.name, got, err, c.want)
			})
		}
		// Standard input: read through the bound for the kinds that may be
		// piped, refused by name for the others; an endless stdin ends at
		// the bound.
		within(t, k.Name()+", stdin", func() {
			for _, name := range []string{"-", "/dev/stdin"} {
				r, err := Input(name, bytes.NewReader(content), k)
				if !k.Stdin() {
					check(t, k.Name()+", "+name, nil, err, outcome{err: ErrNotRegular})
					continue
				}
				if err != nil {
					t.Fatalf("%s, %s: %v", k.Name(), name, err)
				}
				got, err := io.ReadAll(r)
				check(t, k.Name()+", "+name, got, err, outcome{data: content})
				r, _ = Input(name, zeros{}, k)
				_, err = io.Copy(io.Discard, r)
				check(t, k.Name()+", endless "+name, nil, err, outcome{err: ErrTooLarge})
			}
		})
	}
}

// TestAFileThatChangesWhileReadIsRefused: a file that grows (a little, or
// past the bound) or is replaced between the look and the open is not
// taken for what was looked at.
func TestAFileThatChangesWhileReadIsRefused(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds {
		p := filepath.Join(dir, "grows-"+k.Name())
		if err := os.WriteFile(p, []byte("first half\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := Open(p, k)
		if err != nil {
			t.Fatal(err)
		}
		part := make([]byte, 5)
		if _, err := io.ReadFull(f, part); err != nil {
			t.Fatal(err)
		}
		appendTo(t, p, "second half\n")
		got, err := f.ReadAll()
		f.Close()
		check(t, k.Name()+", grows while read", got, err, outcome{err: ErrChanged})

		// Truncated while read (a copy or an export started again): what
		// was read is not the file, nor what it is now.
		if err := os.WriteFile(p, []byte(strings.Repeat("line of the file\n", 100)), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err = Open(p, k)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(f, part); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, 10); err != nil {
			t.Fatal(err)
		}
		got, err = f.ReadAll()
		f.Close()
		check(t, k.Name()+", truncated while read", got, err, outcome{err: ErrChanged})

		// Grown past the bound after the open: the read stops at the bound
		// (the sparse tail costs nothing to read past).
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err = Open(p, k)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, k.Max()+10); err != nil {
			t.Fatal(err)
		}
		within(t, k.Name()+", grows past the bound", func() {
			_, err = io.Copy(io.Discard, f)
			f.Close()
			check(t, k.Name()+", grows past the bound", nil, err, outcome{err: ErrTooLarge})
		})

		// Replaced between the look and the open: by another regular file
		// (renamed over it), and by a FIFO, which must not block the open.
		for _, by := range []string{"a file", "a FIFO"} {
			p := filepath.Join(dir, "replaced-"+k.Name())
			if err := os.WriteFile(p, []byte("looked at\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			within(t, k.Name()+", replaced by "+by, func() {
				f, err := open(p, k, func() {
					if by == "a file" {
						other := p + ".new"
						if err := os.WriteFile(other, []byte("looked at\n"), 0o600); err != nil {
							t.Fatal(err)
						}
						if err := os.Rename(other, p); err != nil {
							t.Fatal(err)
						}
						return
					}
					os.Remove(p)
					if err := syscall.Mkfifo(p, 0o600); err != nil {
						t.Fatal(err)
					}
				})
				if f != nil {
					f.Close()
				}
				want := ErrChanged
				if by == "a FIFO" && k.links() == noLinkOnPath {
					want = ErrNotRegular // the walk looks at the name again before its open
				}
				check(t, k.Name()+", replaced by "+by, nil, err, outcome{err: want})
			})
			os.Remove(p)
		}
	}
}

// TestMessagesNameTheFileAndWhatItIs: the line a person reads says which
// file, what it is and what the kind needs.
func TestMessagesNameTheFileAndWhatItIs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "ca.pem")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		k    Kind
		want string
	}{
		{"/dev/zero", CABundle, "/dev/zero: is a character device, not a regular file: the CA file must be one"},
		{fifo, CABundle, fifo + ": is a named pipe (FIFO), not a regular file: the CA file must be one"},
		{dir, MatterFile, dir + ": is a folder, not a regular file: the matter file must be one"},
	} {
		_, err := Read(c.path, c.k)
		if err == nil || err.Error() != c.want {
			t.Errorf("Read(%s, %s) = %v, want %q", c.path, c.k.Name(), err, c.want)
		}
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, nil, 0o600)
	os.Truncate(big, 5<<20)
	if _, err := Read(big, CABundle); err == nil || err.Error() != big+": is 5.2 MB, over the 4.2 MB a CA file may be" {
		t.Errorf("too large: %v", err)
	}
}

func check(t *testing.T, what string, got []byte, err error, want outcome) {
	t.Helper()
	if want.err == nil {
		if err != nil || !bytes.Equal(got, want.data) {
			t.Errorf("%s: got %q, %v; want %q", what, got, err, want.data)
		}
		return
	}
	if !errors.Is(err, want.err) {
		t.Errorf("%s: got %q, error %v; want an error that is %v", what, truncate(got), err, want.err)
		return
	}
	var e *Error
	if !errors.As(err, &e) || e.Path == "" || e.Reason == "" {
		t.Errorf("%s: the error %v does not name the file and why (%#v)", what, err, e)
	}
}

func truncate(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

func appendTo(t *testing.T, p, s string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// zeros is an endless standard input, as `< /dev/zero` gives.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
