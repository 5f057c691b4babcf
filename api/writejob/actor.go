package writejob

import (
	"context"
	"os/user"

	"github.com/vaultdeck/vaultdeck/store"
)

// Who ran a job, beyond the token's owner (whoami's e-mail, which every
// admin sharing a token has in common): the local account, on every
// machine, and, in a session of `vaultdeck serve`, the SSH key or
// certificate it logged in with (issue 45). Serve puts the session's key in
// the context its console runs with; every job is stamped here, in one
// place, rather than by each command and view.

type actorKey struct{}

// WithActorKey names, in ctx, the key or certificate the writes sent with
// it are made under ("key SHA256:… comment", "certificate alice (…)").
func WithActorKey(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return context.WithValue(ctx, actorKey{}, key)
}

// ActorKeyOf is ctx's key or certificate ("" outside a serve session).
func ActorKeyOf(ctx context.Context) string {
	k, _ := ctx.Value(actorKey{}).(string)
	return k
}

// Actor is who runs a write from ctx, beyond the token's owner: the local
// account (as os/user names it; "" when it cannot) and ctx's key. Write
// jobs, matter runs and upload runs all take it from here.
func Actor(ctx context.Context) (osUser, key string) {
	if u, err := user.Current(); err == nil {
		osUser = u.Username
	}
	return osUser, ActorKeyOf(ctx)
}

// Stamp fills job's actor where its caller left it empty, from Actor.
func Stamp(ctx context.Context, job store.WriteJob) store.WriteJob {
	osUser, key := Actor(ctx)
	if job.ActorOSUser == "" {
		job.ActorOSUser = osUser
	}
	if job.ActorKey == "" {
		job.ActorKey = key
	}
	return job
}

// Who is job's actor in one line, as its receipts print it: "alice@firm
// (root on this machine; key SHA256:… alice@laptop)"; "-" for what is not
// known.
func Who(job store.WriteJob) string {
	or := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	return or(job.ActorEmail) + " (" + Local(job.ActorOSUser, job.ActorKey) + ")"
}

// Local is the actor a run's receipt holds beyond the token's owner, in
// Who's words: "root on this machine; key SHA256:… alice@laptop".
func Local(osUser, key string) string {
	if osUser == "" {
		osUser = "-"
	}
	s := osUser + " on this machine"
	if key != "" {
		s += "; " + key
	}
	return s
}
