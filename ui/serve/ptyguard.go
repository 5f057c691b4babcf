package serve

import (
	"sync"

	"github.com/charmbracelet/ssh"
)

// ptyGuard keeps a session's pty open until its program has stopped. The
// SSH library closes the pty as soon as the client's request stream ends
// (a dropped connection), while the program may still be reading from it;
// the guard makes that close wait for the session's handler to return.
type ptyGuard struct {
	mu sync.Mutex
	m  map[ssh.Session]*guarded
}

type guarded struct {
	started bool          // a shell was accepted: a handler runs and will close done
	done    chan struct{} // closed when the handler returned
}

func newPtyGuard() *ptyGuard { return &ptyGuard{m: map[ssh.Session]*guarded{}} }

func (p *ptyGuard) get(sess ssh.Session) *guarded {
	p.mu.Lock()
	defer p.mu.Unlock()
	g := p.m[sess]
	if g == nil {
		g = &guarded{done: make(chan struct{})}
		p.m[sess] = g
	}
	return g
}

// started is the session-request callback: it runs in the library's request
// loop before the handler is started, so the pty's closer (run later by the
// same loop) knows whether to wait.
func (p *ptyGuard) started(sess ssh.Session, _ string) bool {
	g := p.get(sess)
	p.mu.Lock()
	g.started = true
	p.mu.Unlock()
	return true
}

// finished is called when the session's handler returns.
func (p *ptyGuard) finished(sess ssh.Session) {
	g := p.get(sess)
	p.mu.Lock()
	delete(p.m, sess)
	p.mu.Unlock()
	close(g.done)
}

// wrap makes a pty handler's closer wait for the handler.
func (p *ptyGuard) wrap(h ssh.PtyHandler) ssh.PtyHandler {
	return func(ctx ssh.Context, sess ssh.Session, pty ssh.Pty) (func() error, error) {
		closer, err := h(ctx, sess, pty)
		if err != nil {
			return closer, err
		}
		return func() error {
			g := p.get(sess)
			p.mu.Lock()
			wait := g.started
			if !wait {
				delete(p.m, sess)
			}
			p.mu.Unlock()
			if wait {
				<-g.done
			}
			return closer()
		}, nil
	}
}
