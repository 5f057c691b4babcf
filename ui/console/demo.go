package console

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
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
	home, err := os.MkdirTemp("", "vaultdeck-demo-")
	if err != nil {
		return fmt.Errorf("demo: cannot create a temporary home: %w", err)
	}
	defer func() { err = errors.Join(err, os.RemoveAll(home)) }()

	// The simulator's seeding and the store's opening start once the first
	// frame is on the screen (Options.AfterFirstFrame), or at the latest on
	// the way out, so that Close finds them done.
	start := make(chan struct{})
	begin := sync.OnceFunc(func() { close(start) })

	// A few user entries a minute keep the audit log moving, so following
	// it shows new entries that are not the console's own reads.
	srv := startSim(sim.Options{Seed: o.Seed, Scale: o.Scale, NoRateLimit: o.NoRateLimit, AuditTrickle: demoAuditTrickle, Leaver: true}, start)
	// Plain TCP: Go's listeners try Multipath TCP by default, whose socket
	// (and the probe whether the kernel has it) cost the first frame about
	// a millisecond, for a connection that never leaves the loopback.
	var lc net.ListenConfig
	lc.SetMultipathTCP(false)
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("demo: cannot listen on loopback: %w", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }() // ends with Close below
	defer hs.Close()

	// The simulator is the demo's profile: its base URL and token, and
	// without its limits the client's lifted too (api/account builds the
	// client's configuration, as for every other profile).
	demo := account.Simulator("http://"+ln.Addr().String(), srv, o.NoRateLimit)
	client, err := demo.Client(account.Shared{Budgets: api.NewBudgets()})
	if err != nil {
		return err
	}
	// Opened in the background after the first frame: the frame does not
	// wait for SQLite (the cache and the journal are used from commands,
	// which wait).
	st := store.OpenScratchAfter(filepath.Join(home, "vaultdeck.db"), start)
	defer func() { err = errors.Join(err, st.Close()) }()
	defer begin() // before Close, which waits for the opening

	if o.NoRateLimit {
		// Without limits a crawl of every project's users takes a moment,
		// so :access has a snapshot to show (with limits it would take the
		// console's budget for half an hour: `vaultdeck access crawl` then).
		crawlCtx, stopCrawl := context.WithCancel(ctx)
		crawled := make(chan struct{})
		go func() {
			defer close(crawled)
			_, _ = (&access.Crawler{API: client, Store: st, Profile: demo.DataProfile}).Run(crawlCtx)
		}()
		defer func() { stopCrawl(); <-crawled }() // before the store closes
	}
	c := o.Console
	c.Backend = client
	c.Jobs = ClientJobs(client) // the demo may write to its simulator (unless --read-only)
	c.Cache = StoreCache{Store: st, Profile: demo.DataProfile}
	c.Journal, c.Receipts = st, st
	c.Conn = demo.Conn(client.Base())
	c.AfterFirstFrame = begin
	c.Chores = demoChores(client, st, demo.DataProfile)
	return Run(ctx, c)
}
