//go:build !windows

package debuglog

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A --debug-file that is a named pipe nobody reads is refused at once, by
// name: opened for writing as a file is, it blocked the command for ever,
// SIGTERM included (the signal is the command's to handle, and its one
// goroutine sat in open). A pipe that has a reader (a shell's >(…)) is
// written to.
func TestADebugFIFOWithoutAReaderIsRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "debug.fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := OpenFile(p); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "reads") {
			t.Errorf("OpenFile(fifo) = %v, want a refusal naming it and saying nothing reads it", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("OpenFile of a FIFO with no reader is still blocked after 5s")
	}

	r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := OpenFile(p)
	if err != nil {
		t.Fatalf("a FIFO with a reader: %v", err)
	}
	defer s.Close()
	s.SetRedact(func(l string) string { return l })
	Logger(s).Debug("through the pipe")
	b := make([]byte, 512)
	n, _ := r.Read(b)
	if !strings.Contains(string(b[:n]), "through the pipe") {
		t.Errorf("the reader got %q", b[:n])
	}
}
