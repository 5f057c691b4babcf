// Command auditsync runs the audit job as `vaultdeck audit sync` and
// `vaultdeck audit follow --once --no-mirror --out FILE` do, in a process of
// its own so that BenchmarkAuditSync measures its peak RSS as it measures the curl
// loop's. It differs from the binary in one thing: no client-side rate
// limit (the simulator runs with --no-rate-limit, and the curl loop has
// none), so the figure is the job's own speed, not the budget's.
//
//	auditsync sync|follow BASE_URL OUT    (the token in VAULTDECK_TOKEN)
//
// It prints "requests N entries M".
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: auditsync sync|follow BASE_URL OUT")
		os.Exit(2)
	}
	mode, base, out := os.Args[1], os.Args[2], os.Args[3]
	c, err := api.New(api.Config{BaseURL: base, Token: api.StaticToken(os.Getenv("VAULTDECK_TOKEN")),
		Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}})
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	switch mode {
	case "sync":
		st, err := store.Open(out)
		if err != nil {
			fail(err)
		}
		defer st.Close()
		res, err := (&audit.Job{Svc: c, Mirror: st}).Sync(ctx)
		if err != nil {
			fail(err)
		}
		fmt.Printf("requests %d entries %d\n", res.Requests, res.Listed)
	case "follow":
		sink, err := audit.OpenFileSink(out)
		if err != nil {
			fail(err)
		}
		defer sink.Close()
		requests, entries := 0, 0
		err = (&audit.Job{Svc: c}).Follow(ctx, audit.FollowOptions{Sink: sink, Once: true, Event: func(ev audit.FollowEvent) {
			requests++
			entries += ev.Delivered
		}})
		if err != nil {
			fail(err)
		}
		// the first read (earliest) is not an event: one entry, one request
		fmt.Printf("requests %d entries %d\n", requests+1, entries+1)
	default:
		fail(fmt.Errorf("unknown mode %q", mode))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "auditsync:", err)
	os.Exit(1)
}
