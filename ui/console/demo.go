package console

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/themes"
)

// DemoOptions configure `vaultdeck demo`.
type DemoOptions struct {
	Seed        int64
	Scale       sim.Scale
	NoRateLimit bool
	Console     Options // Backend, Jobs, Cache and Profile are filled in by Demo
}

// demoAuditTrickle is the demo's user audit entries a minute of its clock.
const demoAuditTrickle = 3

// Demo runs the console against a simulator served on a private loopback
// port, with the simulator's all-permissions token and a throwaway home: it
// never touches the user's keyring, store or profiles. Serving over real
// HTTP (rather than an in-memory transport) means the demo exercises exactly
// the code paths a production session does, budgets and all.
func Demo(ctx context.Context, o DemoOptions) (err error) {
	// The theme (and the auto theme's question to the terminal, a round
	// trip of a quarter of a millisecond on a local terminal, more over a
	// network) need not wait for the demo's listener and client, nor they
	// for it: both are made at once.
	var theme func() themes.Theme
	o.Console, theme = themeInBackground(o.Console)
	d, err := newDemo(ctx, o)
	th := theme()
	if err != nil {
		return err
	}
	d.console.theme = th
	defer func() { err = errors.Join(err, d.close()) }()
	return Run(ctx, d.console)
}

// themeInBackground gives o its renderer and builds its theme on a
// goroutine of its own (the auto theme asks the terminal for its
// background); wait returns the theme, a zero one when the name is refused
// (which Run then says). Nothing else may use the terminal or the renderer
// until then.
func themeInBackground(o Options) (_ Options, wait func() themes.Theme) {
	out := o.Output
	if out == nil {
		out = os.Stdout
	}
	o = withRenderer(o, out)
	done := make(chan themes.Theme, 1)
	go func(r *lipgloss.Renderer, name string, noColor bool) {
		th, _ := themes.New(r, name, noColor)
		done <- th
	}(o.Renderer, o.Theme, o.NoColor)
	return o, func() themes.Theme { return <-done }
}

// demo is the demo's console options and what stands behind them.
type demo struct {
	console Options
	sim     *lateSim
	// begin starts what the first frame does not need (once): it is the
	// console's AfterFirstFrame, and close calls it too.
	begin func()
	// close stops everything and removes the temporary home.
	close func() error
}

// newDemo builds the demo's console options. Only what the first frame
// needs is made here: the listener (the client's base URL is its address)
// and the client. The temporary home and the store in it, the simulator's
// seeding and the HTTP server start in begin, once the first frame is on
// the screen: each cost the frame time (a directory, goroutines that woke
// threads), and none is needed before a command asks for data, which waits
// for them (requests and the token for the seeding, store calls for the
// opening).
func newDemo(ctx context.Context, o DemoOptions) (*demo, error) {
	var home string              // set by the store's opening, before its calls return
	var first func(*store.Store) // run on the opened store before its calls
	st, openStore := store.OpenScratchLater(func() (string, error) {
		h, err := os.MkdirTemp("", "vaultdeck-demo-")
		if err != nil {
			return "", fmt.Errorf("demo: cannot create a temporary home: %w", err)
		}
		home = h
		return h, nil
	}, func(s *store.Store) {
		if first != nil {
			first(s)
		}
	})
	// A few user entries a minute keep the audit log moving, so following
	// it shows new entries that are not the console's own reads.
	srv := newLateSim(sim.Options{Seed: o.Seed, Scale: o.Scale, NoRateLimit: o.NoRateLimit, AuditTrickle: demoAuditTrickle, Leaver: true})
	// Plain TCP: Go's listeners try Multipath TCP by default, whose socket
	// (and the probe whether the kernel has it) cost the first frame about
	// a millisecond, for a connection that never leaves the loopback.
	var lc net.ListenConfig
	lc.SetMultipathTCP(false)
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo: cannot listen on loopback: %w", err)
	}
	// The simulator is the demo's profile: its base URL and token, and
	// without its limits the client's lifted too (api/account builds the
	// client's configuration, as for every other profile).
	profile := account.Simulator("http://"+ln.Addr().String(), srv, o.NoRateLimit)
	client, err := profile.Client(account.Shared{Budgets: api.NewBudgets()})
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	// Without limits a crawl of every project's users takes a moment, so
	// :access has a snapshot to show (with limits it would take the
	// console's budget for half an hour: `vaultdeck access crawl` then).
	crawlCtx, stopCrawl := context.WithCancel(ctx)
	crawled := make(chan struct{})
	if o.NoRateLimit {
		crawler := &access.Crawler{API: client, Store: st, Profile: profile.DataProfile, Owner: store.LeaseOwner()}
		first = func(s *store.Store) {
			// Claimed before any other call reads the store: :access,
			// typed right after the first frame, would otherwise find no
			// snapshot and offer a crawl instead of following this one.
			_, _ = (&access.Crawler{Store: s, Profile: crawler.Profile, Owner: crawler.Owner}).Claim()
		}
		go func() {
			defer close(crawled)
			_, _ = crawler.Run(crawlCtx)
		}()
	} else {
		close(crawled)
	}
	d := &demo{sim: srv}
	d.begin = sync.OnceFunc(func() {
		srv.seed()
		go func() { _ = hs.Serve(ln) }() // ends with Close below
		openStore()
	})
	d.close = func() error {
		d.begin() // at the latest on the way out, so that what waits for it ends
		stopCrawl()
		<-crawled // before the store closes
		_ = hs.Close()
		_ = ln.Close()    // Serve's goroutine may not have taken it yet
		err := st.Close() // waits for the opening, which set home
		if home != "" {
			err = errors.Join(err, os.RemoveAll(home))
		}
		return err
	}
	c := o.Console
	c.Backend = client
	c.Jobs = ClientJobs(client) // the demo may write to its simulator (unless --read-only)
	c.Cache = StoreCache{Store: st, Profile: profile.DataProfile}
	c.Journal, c.Receipts = st, st
	c.Conn = profile.Conn(client.Base())
	c.AfterFirstFrame = d.begin
	c.Chores = demoChores(client, st, profile.DataProfile)
	d.console = c
	return d, nil
}
