package console

import (
	"io"
	"os"
	"sync"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"
)

// The demo's simulator seeding and SQLite store need a few milliseconds of
// CPU each; started with the program they competed with its first frame
// for the machine's cores (on two busy cores the frame came later by about
// their sum). Options.AfterFirstFrame lets them wait until the first frame
// is on the screen: the model below arms once its view has something to
// show, and the output calls the hook after the next write, which is that
// frame going out.

// firstFrameModel arms the output once the root model's view is not empty
// (Bubble Tea asks before the terminal's size is known, and the model
// draws nothing then).
type firstFrameModel struct {
	tea.Model
	armed *atomic.Bool
}

func (m firstFrameModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	inner, cmd := m.Model.Update(msg)
	m.Model = inner
	return m, cmd
}

func (m firstFrameModel) View() string {
	v := m.Model.View()
	if v != "" {
		m.armed.Store(true)
	}
	return v
}

// firstFrameOutput calls done (once) after the first write made while
// armed. Embedding the terminal's *os.File keeps its descriptor visible to
// Bubble Tea and termenv (raw mode, size, colour profile).
type firstFrameOutput struct {
	*os.File
	armed *atomic.Bool
	done  func()
}

func (o firstFrameOutput) Write(p []byte) (int, error) {
	n, err := o.File.Write(p)
	if o.armed.Load() {
		o.done()
	}
	return n, err
}

// withFirstFrame wraps m and out for hook; an output that is not a file is
// wrapped without a descriptor.
func withFirstFrame(m tea.Model, out io.Writer, hook func()) (tea.Model, io.Writer) {
	armed := &atomic.Bool{}
	if exitAfterFirstFrame {
		hook = func() { os.Exit(0) }
	}
	done := sync.OnceFunc(hook)
	if f, ok := out.(*os.File); ok {
		return firstFrameModel{m, armed}, firstFrameOutput{File: f, armed: armed, done: done}
	}
	return firstFrameModel{m, armed}, writerFunc(func(p []byte) (int, error) {
		n, err := out.Write(p)
		if armed.Load() {
			done()
		}
		return n, err
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
