package api

import (
	"context"
	"fmt"
	"strings"
)

// Workspace is the workspace a profile was logged in to, as whoami said
// then, and the profile's name for the message that refuses another.
type Workspace struct {
	ID, Name string
	Profile  string
}

// WorkspaceChangedError refuses a request whose token whoami now places
// in another workspace than the profile was logged in to: the token was
// moved to another workspace, or the profile's token was swapped for
// another's. Nothing was sent (errors.Is ErrNotSent): the profile's
// journal, receipts and snapshots belong to the first workspace.
type WorkspaceChangedError struct {
	Want     Workspace
	Got, Was string // the ID and name whoami gives now
}

func (e *WorkspaceChangedError) Error() string {
	login := "vaultdeck login"
	if e.Want.Profile != "" {
		login += " --profile " + e.Want.Profile
	}
	return fmt.Sprintf("the token now answers for the workspace %s, not %s that the profile %q was logged in to: nothing was sent. "+
		"Run `%s` to use the profile with the workspace the token is in now", named(e.Was, e.Got), named(e.Want.Name, e.Want.ID), e.Want.Profile, login)
}

// Unwrap makes the refusal a request not sent.
func (e *WorkspaceChangedError) Unwrap() error { return ErrNotSent }

func named(name, id string) string {
	if name == "" {
		return id
	}
	return fmt.Sprintf("%q (%s)", name, id)
}

// checkWorkspace refuses the request when the client was told the
// workspace its profile was logged in to and whoami (asked once per token,
// shared with the budget's workspace) places tok in another. whoami itself
// is never refused (login and the check ask it), nor is anything when
// whoami does not say (the request itself then says what went wrong).
func (c *Client) checkWorkspace(ctx context.Context, ep endpoint, tok string) error {
	if c.want.ID == "" || ep == epWhoAmI {
		return nil
	}
	w := c.workspaceOf(ctx, tokenHash(tok))
	if w.id == "" || strings.EqualFold(w.id, c.want.ID) {
		return nil
	}
	return &WorkspaceChangedError{Want: c.want, Got: w.id, Was: w.name}
}
