package cli

import (
	"context"
	"fmt"
	"io"
	"log"
	"sync"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/accountcmd"
	"github.com/vaultdeck/vaultdeck/ui/liblog"
	"github.com/vaultdeck/vaultdeck/ui/serve"
)

// Std returns the Env of a real process: its standard streams, the OS
// environment, stored profiles with tokens from the keyring, the router of
// the libraries' log lines, and the console, simulator, demo and account
// commands.
func Std(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) Env {
	logs := liblog.New(stderr)
	s := &processAccounts{acct: accountcmd.Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv}}
	s.acct.Verify = verifyToken
	if isTTY(stderr) {
		s.acct.Busy = busyNotice(stderr)
	}
	e := Env{
		Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv,
		Logs:      logs,
		Account:   s.open,
		OpenStore: func() (*store.Store, error) { return s.acct.Account().OpenStore() },
		Budgets:   api.NewBudgets(), // one registry: every client in the process shares the budget
		// One ledger: every process on the machine shares the workspace's budget.
		Ledger: &processLedger{open: func() (*store.Store, error) { return s.acct.Account().OpenStore() }},
		Sim: func(ctx context.Context, f sim.Flags, stdout, stderr io.Writer) int {
			return sim.Serve(ctx, f, stdout, stderr)
		},
		Journal: s.journal,
		Login: func(ctx context.Context, o accountcmd.LoginOptions) int {
			return accountcmd.RunLogin(ctx, o, s.acct)
		},
		Logout: func(ctx context.Context, o accountcmd.LogoutOptions) int {
			return accountcmd.RunLogout(ctx, o, s.acct)
		},
		Profiles: func(ctx context.Context, o accountcmd.ProfilesOptions) int {
			return accountcmd.RunProfiles(ctx, o, s.acct)
		},
	}
	e.Console = func(ctx context.Context, g Globals, f ConsoleFlags) int { return runConsole(ctx, e, s, g, f) }
	e.Demo = func(ctx context.Context, _ Globals, f DemoFlags) int { return runDemo(ctx, e, f) }
	e.Serve = func(ctx context.Context, g Globals, f serve.Flags, given func(string) bool) int {
		return serve.Start(ctx, f, given, serve.Env{Stdout: stdout, Stderr: stderr, Getenv: getenv, Flags: g.Flags, Logs: logs,
			Debug: serve.Debug{On: g.Debug.On, File: g.Debug.File}})
	}
	return e
}

// RouteLibraryLogs points the standard log package, which every library
// the binary links logs through (net/http's transport and its HTTP/2 half,
// the SSH libraries, slog's default handler), at e's router, without the
// log package's own date prefix: a library never writes to a stream
// itself, and its line goes where the running face says (a command's
// stderr, the console's status line, serve's log), redacted. It is the
// process's one global setting, which the log package forces: main makes
// it once, tests never (they run Main on an Env of their own, routing
// nothing). The libraries that write elsewhere are listed, with why each
// is harmless, in TestLibrariesLogOnlyThroughTheLogPackage.
func RouteLibraryLogs(e Env) {
	log.SetOutput(e.Logs)
	log.SetFlags(0)
}

// processAccounts opens the chosen profile once per process.
type processAccounts struct {
	acct accountcmd.Env

	once   sync.Once
	chosen *account.Chosen
	err    error
}

func (s *processAccounts) open(profile string) (*account.Chosen, error) {
	s.once.Do(func() {
		var st *store.Store
		st, s.err = s.acct.Account().OpenStore()
		if s.err != nil {
			return
		}
		defer st.Close()
		s.chosen, s.err = account.Open(s.acct.Account(), st, profile)
	})
	return s.chosen, s.err
}

// verifyToken is login's check: the token must answer whoami before it is
// stored anywhere.
func verifyToken(ctx context.Context, p store.Profile, tok string) (accountcmd.Verified, error) {
	p.WorkspaceID, p.WorkspaceName = "", "" // the workspace is what this check learns
	res, err := account.Resolve(account.Request{Chosen: &account.Chosen{Profile: p, By: account.ChosenByFlag}, Token: token.NewFixed(tok)})
	if err != nil {
		return accountcmd.Verified{}, err
	}
	c, err := res.Client(account.Shared{})
	if err != nil {
		return accountcmd.Verified{}, err
	}
	who, err := c.WhoAmI(ctx)
	if err != nil {
		return accountcmd.Verified{}, err
	}
	return accountcmd.Verified{Who: fmt.Sprintf("%s <%s> in %s", who.Name, who.Email, who.WorkspaceName),
		WorkspaceID: who.WorkspaceID, WorkspaceName: who.WorkspaceName}, nil
}

// journal opens the database for the upload journal; the caller closes it.
func (s *processAccounts) journal(profile string) (*store.Store, string, error) {
	c, err := s.open(profile)
	if err != nil {
		return nil, "", err
	}
	st, err := s.acct.Account().OpenStore()
	if err != nil {
		return nil, "", err
	}
	return st, c.Profile.Name, nil
}
