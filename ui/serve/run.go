package serve

import (
	"context"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/charmbracelet/wish/logging"
	gossh "golang.org/x/crypto/ssh"
)

// runProgram is the middleware that runs a session's console program, told
// of the session's window changes by hub. It replaces wish's bubbletea
// middleware because of window changes: the SSH library resizes an
// allocated pty from the same Go channel of window changes that wish's
// middleware reads to tell the program, so each change reached only one of
// the two, alternately. The program saw every second resize (growing 80x24
// -> 120x40 was ignored, shrinking back was seen) and the pty kept a stale
// size whenever the program was told. Here the library alone reads that
// channel and keeps the pty right, and the program hears of every change
// from the session's requests themselves (see sessionChannel).
func (s *Server) runProgram(hub *resizeHub) wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
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
			hub.attach(p.Send)
			if _, err := p.Run(); err != nil {
				s.log.Debug("session program ended with an error", "error", err)
			}
			hub.attach(nil)
			p.Kill() // restores the terminal if the program crashed
			cancel()
			next(sess)
		}
	}
}

// handler is the chain every session runs, outermost first: the admission
// gate, the debug log, the program (wish.WithMiddleware's order, built per
// session so that the session's hub is handed to the program).
func (s *Server) handler(hub *resizeHub) ssh.Handler {
	h := func(ssh.Session) {}
	for _, m := range []wish.Middleware{s.runProgram(hub), logging.MiddlewareWithLogger(debugLog{s.log}), s.gate} {
		h = m(h)
	}
	return h
}

// sessionChannel handles each session channel: it makes the session's
// resize hub, watches the channel's requests for window changes (they pass
// through unchanged, however many sessions share the connection), and runs
// the library's session handler with srv's settings and the chain given
// the hub.
func (s *Server) sessionChannel(srv *ssh.Server) ssh.ChannelHandler {
	return func(_ *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
		hub := &resizeHub{}
		// The fields ssh.DefaultSessionHandler reads of its server, with
		// this session's handler (a new value: a Server holds locks and is
		// never copied).
		per := &ssh.Server{
			Handler:                s.handler(hub),
			PtyCallback:            srv.PtyCallback,
			PtyHandler:             srv.PtyHandler,
			SessionRequestCallback: srv.SessionRequestCallback,
			SubsystemHandlers:      srv.SubsystemHandlers,
		}
		ssh.DefaultSessionHandler(per, conn, resizeNewChannel{NewChannel: nc, hub: hub}, ctx)
	}
}

type resizeNewChannel struct {
	gossh.NewChannel
	hub *resizeHub
}

func (n resizeNewChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := n.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		for r := range reqs {
			if r.Type == "window-change" {
				var win struct{ Cols, Rows, WidthPx, HeightPx uint32 }
				if gossh.Unmarshal(r.Payload, &win) == nil && win.Cols > 0 && win.Rows > 0 {
					n.hub.changed(int(win.Cols), int(win.Rows))
				}
			}
			out <- r
		}
	}()
	return ch, out, nil
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
