package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// aliveTimeout bounds the probe: a serve that takes longer to say its
// identification line is not answering (its banner timeout is 10 s for
// the client; the server's own line goes out at once).
const aliveTimeout = 5 * time.Second

// Alive is `serve --check --alive`: a monitoring probe of the running
// serve on addr. It proves what a person's ssh would meet first: that the
// address accepts a connection and the server sends its SSH identification
// line (RFC 4253 4.2), the accept loop and the SSH layer alive. It needs
// neither the keys file nor a token, and it sends nothing but closes the
// connection, which serve counts as a connection that never began a
// session. One line in the Nagios plugin format, as recycle-bin --check:
// exit 0 OK, 3 WARNING (nothing answers, or not SSH).
func Alive(ctx context.Context, addr string, w io.Writer) int {
	ctx, cancel := context.WithTimeout(ctx, aliveTimeout)
	defer cancel()
	start := time.Now()
	warn := func(format string, a ...any) int {
		fmt.Fprintf(w, "SERVE WARNING - %s | answer=%.3fs;;;\n", fmt.Sprintf(format, a...), time.Since(start).Seconds())
		return 3
	}
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return warn("no SSH server answers on %s: %v", addr, err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetReadDeadline(dl)
	}
	// A server may send other lines before its identification (RFC 4253
	// 4.2); a line is at most 255 bytes.
	r := bufio.NewReaderSize(io.LimitReader(conn, 4096), 512)
	for range 8 {
		line, err := r.ReadString('\n')
		if err != nil {
			return warn("%s accepted a connection but sent no SSH identification line: %v", addr, err)
		}
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "SSH-2.0-") {
			took := time.Since(start)
			fmt.Fprintf(w, "SERVE OK - %s on %s answered in %s | answer=%.3fs;;;\n", sanitize.Line(line), addr, took.Round(time.Millisecond), took.Seconds())
			return 0
		}
		if strings.HasPrefix(line, "SSH-") || strings.HasPrefix(line, "HTTP/") {
			break
		}
	}
	return warn("what answers on %s is not an SSH-2.0 server", addr)
}
