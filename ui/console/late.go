package console

import (
	tea "github.com/charmbracelet/bubbletea"
)

// Bubble Tea starts its renderer before it calls the model's Init, and the
// renderer writes the first frame on its first tick: 8 ms after the start
// at the console's 120 fps, whatever the model does in between. Building
// the root model (the theme's styles, the key map, the views) before the
// program ran made the first frame wait for it; built in Init, it is made
// during that tick's wait. What can fail, and the one question to the
// terminal (the auto theme's background), stay before the program starts
// (prepare), so that Init does no IO and an error is still said before the
// screen opens.

// lateModel is the root model, built when Bubble Tea calls Init.
type lateModel struct {
	build func() (tea.Model, error)
	m     tea.Model
	err   error // why the model could not be built; the program then quits
}

func (l *lateModel) Init() tea.Cmd {
	m, err := l.build()
	if err != nil {
		l.err = err
		return tea.Quit
	}
	l.m = m
	return m.Init()
}

func (l *lateModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if l.m == nil {
		return l, nil
	}
	m, cmd := l.m.Update(msg)
	l.m = m
	return l, cmd
}

func (l *lateModel) View() string {
	if l.m == nil {
		return ""
	}
	return l.m.View()
}
