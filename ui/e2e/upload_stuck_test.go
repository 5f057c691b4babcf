package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// blackHole is a server that accepts connections, reads each request's
// first line and never answers: a request sent to it has left the client
// but never reached the service.
type blackHole struct {
	base  string
	lines chan string
}

func startBlackHole(t *testing.T) blackHole {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	bh := blackHole{base: "http://" + ln.Addr().String(), lines: make(chan string, 16)}
	var conns []net.Conn
	done := make(chan struct{})
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			go func() {
				rd := bufio.NewReader(c)
				line, _ := rd.ReadString('\n')
				if answerLimits(c, rd, line) {
					return
				}
				select {
				case bh.lines <- strings.TrimSpace(line):
				default:
				}
			}()
		}
	}()
	return bh
}

// answerLimits answers an upload's limits read (get_metadata, which comes
// before anything is sent) as the service does for a project far from its
// limits, so the black hole swallows the upload itself: the test is of a
// request that left and never arrived, not of limits that could not be
// read. Other requests it leaves to the black hole.
func answerLimits(c net.Conn, rd *bufio.Reader, line string) bool {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "GET" || !strings.HasPrefix(f[1], "/api/v1/vault/get_metadata/") {
		return false
	}
	for { // the headers (a GET has no body)
		h, err := rd.ReadString('\n')
		if err != nil || strings.TrimSpace(h) == "" {
			break
		}
	}
	pid := strings.TrimPrefix(f[1], "/api/v1/vault/get_metadata/")
	body := `{"response":{"content":[{"project_id":"` + pid + `","file_ids":[],"file_names":[],"file_count":0,"max_file_count":100000,"project_size":"0","max_project_size":500000000000}]}}`
	fmt.Fprintf(c, "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
	c.Close()
	return true
}

// killedBeforeArrival starts `vaultdeck upload` against a black hole and
// kills it with SIGKILL once its first upload request is on the wire: the
// journal holds a batch that began and whose files never reached the
// service.
func killedBeforeArrival(t *testing.T, bin string, env []string, args ...string) {
	t.Helper()
	bh := startBlackHole(t)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(childEnv(t, nil, env...), "VAULTDECK_BASE_URL="+bh.base)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	for {
		select {
		case line := <-bh.lines:
			// The client first asks whoami for the workspace whose shared
			// budget it draws from (unanswered here, it gives up after a
			// few seconds and keeps a budget of its own).
			if strings.HasPrefix(line, "GET /api/whoami") {
				continue
			}
			if !strings.HasPrefix(line, "POST /api/v1/vault/upload_files/") {
				t.Fatalf("the first request was %q, not an upload", line)
			}
		case <-time.After(60 * time.Second):
			t.Fatal("no upload request within a minute")
		}
		return
	}
}

// waitExit waits for cmd to end, failing (and killing it) if it is still
// running after limit: a command that hangs must not hang the suite.
func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v still running after %v", cmd.Args[1:], limit)
		return -1
	}
}

// TestResumeRefusesAFIFOAndStopsOnSignal: a journaled file replaced by a
// named pipe before `upload --resume` made the resume block in open(2) for
// as long as nobody wrote to the pipe, deaf to SIGINT and SIGTERM. The
// resume must refuse it by name and send the rest; and a resume stuck on a
// service that does not answer must stop on SIGINT and on SIGTERM, leaving
// the batch pending.
func TestResumeRefusesAFIFOAndStopsOnSignal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit")
	home := t.TempDir()
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + home}
	simEnv := append(env[:len(env):len(env)], "VAULTDECK_BASE_URL="+sp.base)
	out, stderr, code := vd(t, bin, simEnv, "", "projects", "--json")
	var projects []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &projects); err != nil || code != 0 || len(projects) == 0 {
		t.Fatalf("projects: %d %v %s", code, err, stderr)
	}
	pid := projects[0].ID

	dir := filepath.Join(t.TempDir(), "export")
	os.MkdirAll(dir, 0o755)
	for _, n := range []string{"fifo-a.txt", "fifo-b.txt", "fifo-c.txt"} {
		os.WriteFile(filepath.Join(dir, n), []byte("content of "+n), 0o600)
	}
	killedBeforeArrival(t, bin, env, "upload", pid, dir)
	pipe := filepath.Join(dir, "fifo-b.txt")
	os.Remove(pipe)
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}

	// Stopped by a signal while the service does not answer: prompt exit,
	// the batch still pending.
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		bh := startBlackHole(t)
		cmd := exec.Command(bin, "upload", "--resume")
		cmd.Env = append(childEnv(t, nil, env...), "VAULTDECK_BASE_URL="+bh.base)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-bh.lines: // the resume is waiting for the service
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatal("the resume sent no request within a minute")
		}
		cmd.Process.Signal(sig)
		if code := waitExit(t, cmd, 20*time.Second); code != 3 {
			t.Errorf("%v: exit %d, want 3 (the batch left for a later resume)", sig, code)
		}
	}

	cmd := exec.Command(bin, "upload", "--resume", "--json")
	cmd.Env = childEnv(t, nil, simEnv...)
	var outb, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &outb, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	code = waitExit(t, cmd, 30*time.Second)
	var rep struct {
		Uploaded []struct {
			Local string `json:"local_path"`
		}
		Refused []struct {
			Local  string `json:"local_path"`
			Reason string
		}
	}
	if err := json.Unmarshal([]byte(outb.String()), &rep); err != nil || code != 3 {
		t.Fatalf("resume: exit %d, %v\n%s\n%s", code, err, outb.String(), errb.String())
	}
	if len(rep.Uploaded) != 2 || len(rep.Refused) != 1 || rep.Refused[0].Local != pipe || !strings.Contains(rep.Refused[0].Reason, "not a regular file") {
		t.Errorf("resume report: %s", outb.String())
	}
}

// TestUploadSecondSignalStopsNow: the first Ctrl-C waits for the current
// request's answer (it tells what arrived); with a service that does not
// answer that wait lasted until the 30 s first-byte timeout, and further
// Ctrl-Cs were swallowed. A second SIGINT or SIGTERM now stops at once,
// exit 3, the batch left for a resume, which then finishes it.
func TestUploadSecondSignalStopsNow(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit")
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + t.TempDir()}
	simEnv := append(env[:len(env):len(env)], "VAULTDECK_BASE_URL="+sp.base)
	out, stderr, code := vd(t, bin, simEnv, "", "projects", "--json")
	var projects []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &projects); err != nil || code != 0 || len(projects) == 0 {
		t.Fatalf("projects: %d %v %s", code, err, stderr)
	}
	pid := projects[0].ID
	dir := filepath.Join(t.TempDir(), "export")
	os.MkdirAll(dir, 0o755)
	for _, n := range []string{"sig-a.txt", "sig-b.txt"} {
		os.WriteFile(filepath.Join(dir, n), []byte("content of "+n), 0o600)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		bh := startBlackHole(t)
		cmd := exec.Command(bin, "upload", pid, dir, "--mode", "replace")
		cmd.Env = append(childEnv(t, nil, env...), "VAULTDECK_BASE_URL="+bh.base)
		stderrPipe, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-bh.lines: // the request is on the wire, its answer never comes
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatal("no upload request within a minute")
		}
		cmd.Process.Signal(sig)
		sc := bufio.NewScanner(stderrPipe)
		for sc.Scan() && !strings.Contains(sc.Text(), "stopping after the current request") {
		}
		cmd.Process.Signal(sig)
		go func() { // keep the pipe drained
			for sc.Scan() {
			}
		}()
		if code := waitExit(t, cmd, 20*time.Second); code != 3 {
			t.Errorf("%v twice: exit %d, want 3", sig, code)
		}
	}
	out, stderr, code = vd(t, bin, simEnv, "", "upload", "--resume", "--json")
	if code != 0 || strings.Count(out, "\"file_id\"") != 4 {
		t.Errorf("resume: exit %d\n%s\n%s", code, out, stderr)
	}
}
