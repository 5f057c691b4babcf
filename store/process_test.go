package store

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Child processes are this test binary re-executed with -test.run pointing at
// TestHelperProcess and these variables saying what to do.
const (
	helperEnv  = "VAULTDECK_STORE_HELPER"
	helperPath = "VAULTDECK_STORE_HELPER_PATH"
	helperTag  = "VAULTDECK_STORE_HELPER_TAG"
	helperN    = "VAULTDECK_STORE_HELPER_N"
)

// TestHelperProcess is not a test: it is the body of the child processes.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("only runs as a child process")
	}
	if mode == "locked" { // locks_test.go: is the file's shared lock held?
		os.Exit(sharedLockHeld(os.Getenv(helperPath)))
	}
	s, err := Open(os.Getenv(helperPath))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	tag := os.Getenv(helperTag)
	n, _ := strconv.Atoi(os.Getenv(helperN))
	out := bufio.NewWriter(os.Stdout)
	for i := 0; n == 0 || i < n; i++ {
		id := fmt.Sprintf("%s-%d", tag, i)
		var err error
		switch {
		case i%3 == 0:
			err = s.PutCache(tag, id, []byte(id), time.Now())
		case i%3 == 1:
			_, err = s.db.Exec(`INSERT INTO profile_settings (profile, key, value) VALUES (?, ?, ?)`, tag, id, id)
		default:
			err = s.SaveProfile(Profile{Name: id, Region: "us"})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		// Reported only after the commit returned: every id the parent reads
		// must be in the file, whatever happens next.
		fmt.Fprintln(out, id)
		out.Flush()
	}
	s.Close()
	os.Exit(0)
}

func helperCmd(t *testing.T, path, tag string, n int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=1", helperPath+"="+path, helperTag+"="+tag, helperN+"="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	return cmd
}

func hasRow(t *testing.T, s *Store, id string, i int, tag string) bool {
	t.Helper()
	switch i % 3 {
	case 0:
		_, _, ok, err := s.Cache(tag, id)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	case 1:
		var n int
		if err := s.db.QueryRow(`SELECT count(*) FROM profile_settings WHERE profile = ? AND key = ?`, tag, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	default:
		_, err := s.Profile(id)
		return err == nil
	}
}

// TestTwoProcessesWriteAtOnce starts several real processes on a fresh file
// at the same moment (so they also race through the migrations) and checks
// every row each of them committed is there.
func TestTwoProcessesWriteAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), FileName)
	const procs, n = 3, 150
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			cmd := helperCmd(t, path, fmt.Sprintf("p%d", p), n)
			cmd.Stdout = nil
			errs[p] = cmd.Run()
		}(p)
	}
	wg.Wait()
	for p, err := range errs {
		if err != nil {
			t.Fatalf("process %d failed: %v", p, err)
		}
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for p := 0; p < procs; p++ {
		tag := fmt.Sprintf("p%d", p)
		for i := 0; i < n; i++ {
			if id := fmt.Sprintf("%s-%d", tag, i); !hasRow(t, s, id, i, tag) {
				t.Fatalf("row %s is missing", id)
			}
		}
	}
	all, _ := s.Profiles()
	if want := procs * (n / 3); len(all) != want {
		t.Fatalf("%d profiles, want %d", len(all), want)
	}
	if def, err := s.DefaultProfile(); err != nil || def.Name == "" {
		t.Fatalf("concurrent first saves must leave exactly one default: %v", err)
	}
}

// TestKillNineLosesNoCommittedRow kills a writer with SIGKILL mid-stream and
// checks that every row it reported as committed survived.
func TestKillNineLosesNoCommittedRow(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGKILL")
	}
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), FileName)
	for round := 0; round < 3; round++ {
		tag := fmt.Sprintf("k%d", round)
		cmd := helperCmd(t, path, tag, 0) // 0: write until killed
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var committed []string
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			committed = append(committed, sc.Text())
			if len(committed) == 40+round*17 {
				cmd.Process.Signal(syscall.SIGKILL)
				break
			}
		}
		for sc.Scan() { // ids committed between the signal and the death
			committed = append(committed, sc.Text())
		}
		cmd.Wait()

		s, err := Open(path)
		if err != nil {
			t.Fatalf("reopening after kill -9: %v", err)
		}
		for i, id := range committed {
			if !hasRow(t, s, id, i, tag) {
				t.Fatalf("round %d: committed row %s lost after kill -9", round, id)
			}
		}
		var check string
		s.db.QueryRow(`PRAGMA integrity_check`).Scan(&check)
		if check != "ok" {
			t.Fatalf("integrity_check = %q", check)
		}
		s.Close()
	}
}
