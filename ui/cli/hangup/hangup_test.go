//go:build unix

package hangup

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// As main runs a command: its context ends at the first SIGHUP. Under
// Keep, the hangup runs fn and the command's context goes on; a second
// hangup runs fn again; SIGTERM ends it.
func TestAHangupKeepsItRunning(t *testing.T) {
	parent, stopMain := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stopMain()
	hups := make(chan struct{}, 4)
	ctx, stop := Keep(parent, func() { hups <- struct{}{} })
	defer stop()
	for i := 1; i <= 2; i++ {
		if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		<-hups
	}
	<-parent.Done() // main's context ended at the first hangup
	if !ByHangup(parent) {
		t.Fatalf("main's context ended by %v, want the hangup", context.Cause(parent))
	}
	if ctx.Err() != nil {
		t.Fatal("a hangup ended the command's context")
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done() // SIGTERM ends it (the test would hang otherwise)
}

// A parent ended for any other reason ends it; stop ends it too.
func TestTheParentsEndIsItsEnd(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	ctx, stop := Keep(parent, func() {})
	defer stop()
	cancel()
	<-ctx.Done()
	ctx2, _, stop2 := Channel(context.Background())
	stop2()
	<-ctx2.Done()
}
