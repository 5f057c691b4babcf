package store

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// filesHelper is the variable that makes TestFilesHelperProcess a child
// process: it names the change the child makes to its own files.
const filesHelper = "VAULTDECK_STORE_FILES_HELPER"

// changes are what a cleaning script, a backup or a person does to the
// files of a database that a process has open.
func changes() map[string]func(path string) error {
	return map[string]func(string) error{
		"nothing": func(string) error { return nil },
		"wal and shm removed": func(p string) error {
			return errors.Join(os.Remove(p+"-wal"), os.Remove(p+"-shm"))
		},
		"wal removed": func(p string) error { return os.Remove(p + "-wal") },
		"shm removed": func(p string) error { return os.Remove(p + "-shm") },
		"db removed":  func(p string) error { return os.Remove(p) },
		"db a copy of itself": func(p string) error {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(p+".tmp", b, 0o600); err != nil {
				return err
			}
			return os.Rename(p+".tmp", p)
		},
		"directory renamed": func(p string) error { return os.Rename(filepath.Dir(p), filepath.Dir(p)+".moved") },
		"hard link made":    func(p string) error { return os.Link(p, p+".link") },
	}
}

// TestFilesHelperProcess is not a test: it is a process that saves a
// profile, has its files changed, asks Unchanged (its answer on stdout),
// saves another profile and ends without closing, as a killed or exiting
// process does.
func TestFilesHelperProcess(t *testing.T) {
	change := os.Getenv(filesHelper)
	if change == "" {
		t.Skip("only runs as a child process")
	}
	path := os.Getenv(helperPath)
	if change == "closed, another left open" {
		// The command line: the journal's Store closed, the budget
		// ledger's open until the process ends.
		ledger, err := Open(path)
		if err != nil {
			os.Exit(3)
		}
		s, err := Open(path)
		if err == nil {
			err = s.SaveProfile(Profile{Name: "before", Region: "us"})
		}
		if err == nil {
			err = s.Close()
		}
		fmt.Println(err, ledger.Unchanged())
		os.Exit(0)
	}
	s, err := Open(path)
	if err == nil {
		err = s.SaveProfile(Profile{Name: "before", Region: "us"})
	}
	if err == nil {
		err = changes()[change](path)
	}
	if err != nil {
		fmt.Println("setup:", err)
		os.Exit(3)
	}
	fmt.Println(s.Unchanged())
	if err := s.SaveProfile(Profile{Name: "after", Region: "us"}); err != nil {
		fmt.Println("after:", err)
	}
	os.Exit(0)
}

// TestUnchangedNoticesEveryChangeOfItsFiles: each change of the files under
// an open Store is named by Unchanged, a hard link or nothing is not, and
// when only the log was removed what the process committed, before and
// after, is still in the file once it has ended.
func TestUnchangedNoticesEveryChangeOfItsFiles(t *testing.T) {
	cases := []struct {
		change string
		says   string // in Unchanged's error; "" for nil
		kept   bool   // both profiles are in the file afterwards
	}{
		{"nothing", "", true},
		{"hard link made", "", true},
		{"wal and shm removed", "write-ahead log", true},
		{"wal removed", "write-ahead log", true},
		{"shm removed", "shared-memory index", true},
		{"db removed", "database file", false},
		{"db a copy of itself", "was replaced by another file", false},
		{"directory renamed", "is gone (renamed or removed)", false},
	}
	for _, c := range cases {
		t.Run(c.change, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "home", FileName)
			cmd := exec.Command(os.Args[0], "-test.run=^TestFilesHelperProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), filesHelper+"="+c.change, helperPath+"="+path)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the child failed: %v\n%s", err, out)
			}
			said := strings.SplitN(string(out), "\n", 2)[0]
			switch {
			case c.says == "" && said != "<nil>":
				t.Errorf("Unchanged after %q: %s, want nil", c.change, said)
			case c.says != "" && !strings.Contains(said, c.says):
				t.Errorf("Unchanged after %q: %q, want it to say %q", c.change, said, c.says)
			}
			if !c.kept {
				return
			}
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for _, name := range []string{"before", "after"} {
				if _, err := s.Profile(name); err != nil {
					t.Errorf("after %q the profile saved %s it is not in the file: %v", c.change, name, err)
				}
			}
		})
	}
}

// TestWhatAClosedStoreWroteOutlivesItsLog: a process that closed the Store
// it wrote with and ended with another open (the budget ledger's) leaves
// nothing in the log alone, so a cleaning script that removes the -wal and
// -shm files after it ended loses nothing.
func TestWhatAClosedStoreWroteOutlivesItsLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	cmd := exec.Command(os.Args[0], "-test.run=^TestFilesHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), filesHelper+"=closed, another left open", helperPath+"="+path)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "<nil> <nil>") {
		t.Fatalf("the child: %v\n%s", err, out)
	}
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Profile("before"); err != nil {
		t.Errorf("the profile a closed Store saved is gone with the log removed after the process ended: %v", err)
	}
}

// TestUnchangedStaysChanged: once the files moved, a Store says so at every
// later check, even after the path holds a file again.
func TestUnchangedStaysChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Unchanged(); err != nil {
		t.Fatalf("a Store just opened: %v", err)
	}
	os.Remove(path + "-shm")
	first := s.Unchanged()
	if !errors.Is(first, ErrChanged) {
		t.Fatalf("after the index was removed: %v", first)
	}
	other, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	other.Close()
	if again := s.Unchanged(); again == nil || again.Error() != first.Error() {
		t.Errorf("checked again: %v, want %v", again, first)
	}
}
