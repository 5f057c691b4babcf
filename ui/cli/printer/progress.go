package printer

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
)

// Progress is the status line of a long command on a terminal's stderr:
// pages and items so far, and the waits (budget, Retry-After) that would
// otherwise look like a hang. Counts are drawn only when stdout is not the
// same terminal (the rows themselves show progress there); wait lines are
// always shown on a terminal. It writes to the real stderr: its text is the
// program's own, never the server's.
type Progress struct {
	mu           sync.Mutex
	w            io.Writer
	counts, on   bool
	pages, items int
	drawn        bool
	last         time.Time
}

// Progress is the command's status line (one per command).
func (p *Printer) Progress() *Progress {
	if p.progress == nil {
		p.progress = &Progress{w: p.io.err, on: p.StderrIsTerminal()}
		p.progress.counts = p.progress.on && !p.StdoutIsTerminal()
	}
	return p.progress
}

// Watch is ctx with the status line told of every wait of its requests,
// ended (its cause the StreamError) once stdout or stderr lost what it was
// given: a job stops before its next request rather than work on unseen.
func (p *Printer) Watch(ctx context.Context) context.Context {
	ctx, stop := context.WithCancelCause(api.WithWaitObserver(ctx, p.Progress().Observe))
	p.io.onLoss(stop)
	return ctx
}

// On reports whether the line is drawn at all (stderr is a terminal).
func (g *Progress) On() bool { return g.on }

// Observe is the wait observer of a command's requests.
func (g *Progress) Observe(w api.Wait) {
	if w.For < time.Second {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.on {
		return
	}
	g.clear()
	fmt.Fprintf(g.w, "vaultdeck: %s\n", w)
}

func (g *Progress) page() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pages++
	g.draw(true)
}

func (g *Progress) item() {
	g.items++
	if g.items%4096 == 0 {
		g.mu.Lock()
		g.draw(false)
		g.mu.Unlock()
	}
}

func (g *Progress) draw(force bool) {
	if !g.counts || (!force && time.Since(g.last) < 100*time.Millisecond) {
		return
	}
	g.last = time.Now()
	fmt.Fprintf(g.w, "\r\x1b[K%s", plural.Count(g.items, "item"))
	if g.pages > 1 {
		fmt.Fprintf(g.w, ", %s", plural.Count(g.pages, "page"))
	}
	g.drawn = true
}

// Status draws text as the line (a job's own progress: audit sync), at
// most every 200 ms, on a terminal only.
func (g *Progress) Status(text string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.on || time.Since(g.last) < 200*time.Millisecond {
		return
	}
	g.last = time.Now()
	fmt.Fprintf(g.w, "\r\x1b[K%s", text)
	g.drawn = true
}

func (g *Progress) clear() {
	if g.drawn {
		io.WriteString(g.w, "\r\x1b[K")
		g.drawn = false
	}
}

// Done removes the status line.
func (g *Progress) Done() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.clear()
}
