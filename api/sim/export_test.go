package sim

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// Run is `vaultdeck sim` without cobra, for the tests: it parses args, serves the simulator until
// ctx is cancelled and returns the process exit code (0 ok, 1 runtime error,
// 2 usage error). Before serving it prints, and flushes, one line per fact:
//
//	base_url http://127.0.0.1:8080
//	ca_file /tmp/vaultdeck-sim-ca-123.pem        (with --tls only)
//	token admin vdsim_admin_0123456789abcdef Vault API,Modify workspace projects,...
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("sim", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var f Flags
	f.Register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sim: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	return Serve(ctx, f, stdout, stderr)
}

// AuditEntries is a copy of the seeded and added audit entries, oldest
// first.
func (s *Server) AuditEntries() []auditEntry {
	s.lock()
	defer s.mu.Unlock()
	out := make([]auditEntry, len(s.st.audit))
	for i, e := range s.st.audit {
		out[i] = *e
	}
	return out
}
