package auditcmd

import (
	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/vaultdeck/vaultdeck/api/audit"
)

// notifier tells systemd (a unit of Type=notify, $NOTIFY_SOCKET set) how
// the follow is: READY=1 once its first read was answered, WATCHDOG=1
// after each read answered since, and nothing while reads fail (a refused
// token, an outage), so WatchdogSec= restarts a follow that has stopped
// making progress. Without $NOTIFY_SOCKET it sends nothing.
type notifier struct {
	send  func(state string) (bool, error)
	say   func(string)
	ready bool
	said  bool // a failed send is said once
}

func newNotifier(say func(string)) *notifier {
	return &notifier{send: func(s string) (bool, error) { return daemon.SdNotify(false, s) }, say: say}
}

// event is told of every read of the follow.
func (n *notifier) event(ev audit.FollowEvent) {
	if ev.Err != nil {
		return // no progress: the watchdog is not fed
	}
	if !n.ready {
		n.ready = true
		n.notify(daemon.SdNotifyReady)
	}
	n.notify(daemon.SdNotifyWatchdog)
}

func (n *notifier) notify(state string) {
	if _, err := n.send(state); err != nil && !n.said {
		n.said = true
		n.say("systemd was not told " + state + " (" + err.Error() + "): under a watchdog the unit will be restarted")
	}
}
