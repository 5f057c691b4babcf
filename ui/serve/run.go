package serve

import (
	"context"
	"io"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// runProgram is the middleware that runs a session's console program. It
// replaces wish's bubbletea middleware because of window changes: the SSH
// library resizes an allocated pty from the same Go channel of window
// changes that wish's middleware reads to tell the program, so each change
// reached only one of the two, alternately. The program saw every second
// resize (growing 80x24 -> 120x40 was ignored, shrinking back was seen)
// and the pty kept a stale size whenever the program was told. Here the
// library alone reads that channel and keeps the pty right, and the
// program hears of every change from the session's requests themselves
// (see windowChanges).
func (s *Server) runProgram(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		p := s.program(sess)
		if p == nil {
			next(sess)
			return
		}
		ctx, cancel := context.WithCancel(sess.Context())
		go func() {
			<-ctx.Done() // the client went away, or the program ended
			p.Quit()
		}()
		hub := hubOf(sess)
		if hub != nil {
			hub.attach(p.Send)
		}
		if _, err := p.Run(); err != nil {
			s.log.Debug("session program ended with an error", "error", err)
		}
		if hub != nil {
			hub.attach(nil)
		}
		p.Kill() // restores the terminal if the program crashed
		cancel()
		next(sess)
	}
}

// windowChanges wraps the session channel handler: each session's
// requests pass through unchanged, and a window change is also told to the
// session's program, however many sessions share the connection.
func windowChanges(h ssh.ChannelHandler) ssh.ChannelHandler {
	return func(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
		h(srv, conn, resizeNewChannel{nc}, ctx)
	}
}

type resizeNewChannel struct{ gossh.NewChannel }

func (n resizeNewChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := n.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	hub := &resizeHub{}
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		for r := range reqs {
			if r.Type == "window-change" {
				var win struct{ Cols, Rows, WidthPx, HeightPx uint32 }
				if gossh.Unmarshal(r.Payload, &win) == nil && win.Cols > 0 && win.Rows > 0 {
					hub.changed(int(win.Cols), int(win.Rows))
				}
			}
			out <- r
		}
	}()
	return resizeChannel{Channel: ch, hub: hub}, out, nil
}

// resizeChannel is the session's SSH channel, carrying its hub. The
// session hands out only the channel's methods; Stderr is the one that
// returns the channel's own value for a session with a real pty, so the
// hub rides on it.
type resizeChannel struct {
	gossh.Channel
	hub *resizeHub
}

func (c resizeChannel) Stderr() io.ReadWriter { return hubStderr{c.Channel.Stderr(), c.hub} }

type hubStderr struct {
	io.ReadWriter
	hub *resizeHub
}

func hubOf(sess ssh.Session) *resizeHub {
	if h, ok := sess.Stderr().(hubStderr); ok {
		return h.hub
	}
	return nil
}

// resizeHub passes a session's window changes to its program while one
// runs.
type resizeHub struct {
	mu   sync.Mutex
	send func(tea.Msg)
}

func (h *resizeHub) attach(send func(tea.Msg)) {
	h.mu.Lock()
	h.send = send
	h.mu.Unlock()
}

func (h *resizeHub) changed(w, rows int) {
	h.mu.Lock()
	send := h.send
	h.mu.Unlock()
	if send != nil {
		send(tea.WindowSizeMsg{Width: w, Height: rows}) // returns once the program took it or ended
	}
}
