package store

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// TestHolderIsGone: the one lease scheme that the upload journal and the
// access crawl share. A holder is taken over early only when it is a
// process of this host that has exited; this process, another host's
// process and names of another shape wait for their lease to lapse.
func TestHolderIsGone(t *testing.T) {
	host, _ := os.Hostname()
	me := LeaseOwner()
	if HolderIsGone(me) {
		t.Errorf("this process's own lease (%s) was called gone", me)
	}
	for _, h := range []string{"", "someone", "other-host:1:abc", fmt.Sprintf("%s:notapid:abc", host)} {
		if HolderIsGone(h) {
			t.Errorf("holder %q was called gone", h)
		}
	}
	if runtime.GOOS == "windows" {
		return // processGone cannot tell there: leases lapse by time only
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := fmt.Sprintf("%s:%d:abc", host, cmd.Process.Pid)
	if !HolderIsGone(dead) {
		t.Errorf("an exited process of this host (%s) was not called gone", dead)
	}
	if HolderIsGone(fmt.Sprintf("elsewhere:%d:abc", cmd.Process.Pid)) {
		t.Error("the same pid on another host was called gone")
	}
}
