package console

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestRunBuildsTheModelOnceTheProgramStarted: the root model (theme
// styles, key map, views) is built in the program's Init, after Bubble Tea
// has started (its set-up written to the output), not before: the first
// frame goes out on the renderer's first tick, and building during that
// wait brings it nearer (issue 32). Building the :matters route reads
// VAULTDECK_TOKEN, which marks the moment the model is built.
func TestRunBuildsTheModelOnceTheProgramStarted(t *testing.T) {
	var mu sync.Mutex
	var events []string
	note := func(e string) {
		mu.Lock()
		defer mu.Unlock()
		if len(events) == 0 || events[len(events)-1] != e {
			events = append(events, e)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	built := make(chan struct{})
	var once sync.Once
	getenv := func(name string) string {
		if name == "VAULTDECK_TOKEN" {
			note("model built")
			once.Do(func() { close(built) })
		}
		return ""
	}
	out := writerFunc(func(p []byte) (int, error) { note("written"); return len(p), nil })
	in, stdin := io.Pipe()
	defer stdin.Close()
	ran := make(chan error, 1)
	go func() {
		ran <- Run(ctx, Options{Backend: &pagetest.Fake{}, Theme: "dark", Input: in, Output: out, Getenv: getenv})
	}()
	<-built
	cancel()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) < 2 || events[0] != "written" {
		t.Fatalf("the model was built before the program started: %s", strings.Join(events, ", "))
	}
}

// TestRunSaysAThemeMistakeBeforeTheScreen: what can fail is checked before
// the program starts, so nothing is written to the terminal for it.
func TestRunSaysAThemeMistakeBeforeTheScreen(t *testing.T) {
	written := 0
	out := writerFunc(func(p []byte) (int, error) { written += len(p); return len(p), nil })
	err := Run(context.Background(), Options{Backend: &pagetest.Fake{}, Theme: "sepia", Input: strings.NewReader(""), Output: out,
		Getenv: func(string) string { return "" }})
	if err == nil || !strings.Contains(err.Error(), `no theme "sepia"`) || written != 0 {
		t.Fatalf("err %v, %d bytes written", err, written)
	}
}
