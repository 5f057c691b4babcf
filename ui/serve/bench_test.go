package serve

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	bm "github.com/charmbracelet/wish/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// moveBytes measures what one cursor move costs on the SSH channel: it
// sends key, waits until the frame showing marker has arrived (the status
// line is the frame's last line), and returns the bytes received since.
func moveBytes(tb testing.TB, tm *term, key, marker string) int {
	tb.Helper()
	before := tm.out.Len()
	tm.send(key)
	waitUntil(tb, marker, func() bool {
		s := tm.out.String()
		return len(s) > before && strings.Contains(s[before:], marker)
	}, tm.text)
	return tm.out.Len() - before
}

// The stock bubbles table, served the same way: the same rows, columns,
// size and session renderer, and a position line as ours has.
type stockModel struct {
	t    table.Model
	n    int
	note string // what our position line says beside the position, styled as ours
}

func (m stockModel) Init() tea.Cmd { return nil }

func (m stockModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && k.String() == "q" {
		return m, tea.Quit
	}
	var cmd tea.Cmd
	m.t, cmd = m.t.Update(msg)
	return m, cmd
}

func (m stockModel) View() string {
	return m.t.View() + "\n" + fmt.Sprintf("%d/%d", m.t.Cursor()+1, m.n) + m.note
}

func stockServer(tb testing.TB, rows []table.Row, cols []table.Column) string {
	tb.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, _ := gossh.MarshalPrivateKey(priv, "")
	srv, err := wish.NewServer(
		wish.WithHostKeyPEM(pem.EncodeToMemory(block)),
		wish.WithPublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
		ssh.AllocatePty(), // the same transport as vaultdeck serve
		wish.WithMiddleware(bm.Middleware(func(sess ssh.Session) (tea.Model, []tea.ProgramOption) {
			r := bm.MakeRenderer(sess)
			st := table.DefaultStyles()
			st.Header = r.NewStyle().Padding(0, 1).BorderStyle(lipgloss.NormalBorder()).
				BorderForeground(lipgloss.Color("240")).BorderBottom(true).Bold(false)
			st.Cell = r.NewStyle().Padding(0, 1)
			st.Selected = r.NewStyle().Bold(true).Foreground(lipgloss.Color("229")).Background(lipgloss.Color("57"))
			t := table.New(table.WithColumns(cols), table.WithRows(rows), table.WithFocused(true),
				table.WithHeight(40-3), table.WithWidth(120), table.WithStyles(st))
			// Our info line names the deleters' common e-mail domain beside
			// the position (ui/widgets drops it from the rows); the stock line
			// says the same, muted the same way, so both repaint the same text.
			note := ""
			if len(rows) > 0 {
				if _, domain, ok := strings.Cut(rows[0][1], "@"); ok {
					note = r.NewStyle().Foreground(lipgloss.Color("245")).Render(" · e-mails @" + domain)
				}
			}
			return stockModel{t: t, n: len(rows), note: note}, []tea.ProgramOption{tea.WithAltScreen()}
		})),
	)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	tb.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// stockRows are the recycle bin as the stock table shows it: the same
// columns, widths and text as vaultdeck's view.
func stockRows(tb testing.TB, base, tok string) ([]table.Row, []table.Column) {
	tb.Helper()
	c, err := api.New(api.Config{BaseURL: base, Token: api.StaticToken(tok), Limits: api.Limits{Vault: -1}})
	if err != nil {
		tb.Fatal(err)
	}
	items, _, err := c.RecycleBin(api.RecycleBinQuery{}).Collect(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	cols := []table.Column{{Title: "project", Width: 46}, {Title: "deleted by", Width: 34}, {Title: "deleted at", Width: 16},
		{Title: "purge in", Width: 8}, {Title: "files", Width: 5}, {Title: "KB", Width: 2}}
	rows := make([]table.Row, len(items))
	for i, e := range items {
		kb := ""
		if e.VaultProject.IsKnowledgeBaseProject {
			kb = "✓"
		}
		rows[i] = table.Row{e.VaultProject.Name, e.DeletedByUserEmail, e.DeletedAt.Format("2006-01-02 15:04"),
			"29d", fmt.Sprint(int64(e.VaultProject.FilesCount)), kb}
	}
	return rows, cols
}

// moveCosts are the bytes of one cursor move within the window and of one
// that scrolls it.
type moveCosts struct{ within, scroll int }

// sshMoves measures vaultdeck's recycle bin (100,000 entries) and the stock
// table with the same rows over the same SSH transport at 120x40, and the
// time from connect to vaultdeck's first frame (the projects view, loaded
// over the API).
func sshMoves(tb testing.TB) (ours, stock moveCosts, firstFrame time.Duration) {
	f := startServerSim(tb, sim.Options{Seed: sim.DefaultSeed, Scale: sim.ScaleLarge, NoRateLimit: true},
		func(c *Config) { c.Limits.Vault = -1 })
	rows, cols := stockRows(tb, f.baseURL, f.sim.Token("admin"))
	stockAddr := stockServer(tb, rows, cols)
	n := len(rows)
	measure := func(tm *term) moveCosts {
		var m moveCosts
		m.within = moveBytes(tb, tm, "j", fmt.Sprintf("2/%d", n))
		tm.send(strings.Repeat("\x1b[B", 58)) // down arrows, well past the window's last row
		tm.waitFor(fmt.Sprintf("60/%d", n))
		m.scroll = moveBytes(tb, tm, "j", fmt.Sprintf("61/%d", n))
		return m
	}

	start := time.Now()
	tm := f.open(f.bound, nil)
	tm.waitFor("Acme Corp v. Halvorsen")
	firstFrame = time.Since(start)
	tm.send(":bin\r")
	tm.waitFor(fmt.Sprintf("1/%d", n))
	ours = measure(tm)
	tm.send("q")
	tm.exit()

	c, err := gossh.Dial("tcp", stockAddr, &gossh.ClientConfig{User: "bench", Auth: []gossh.AuthMethod{gossh.PublicKeys(f.bound)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	st := openPty(tb, c, nil)
	st.waitFor(fmt.Sprintf("1/%d", n))
	stock = measure(st)
	st.send("q")
	st.exit()
	return ours, stock, firstFrame
}

// BenchmarkSSHCursorMove reports the bytes written to the SSH channel for
// one cursor move at 120x40 in the recycle bin (100,000 entries), within the
// window and one that scrolls it, next to the stock bubbles table with the
// same rows in the same run; and the time from connect to the first frame.
func BenchmarkSSHCursorMove(b *testing.B) {
	for range b.N {
		ours, stock, first := sshMoves(b)
		b.ReportMetric(float64(ours.within), "B/move-vaultdeck")
		b.ReportMetric(float64(ours.scroll), "B/scroll-vaultdeck")
		b.ReportMetric(float64(stock.within), "B/move-stock")
		b.ReportMetric(float64(stock.scroll), "B/scroll-stock")
		b.ReportMetric(float64(first.Microseconds())/1000, "ms-first-frame")
	}
}

// Over a slow link every byte of a key press is latency: a cursor move in
// vaultdeck costs no more on the wire than in the stock bubbles table.
func TestSSHCursorMoveCostsNoMoreThanStockTable(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 100,000 recycle-bin entries")
	}
	ours, stock, _ := sshMoves(t)
	if ours.within > stock.within || ours.scroll > stock.scroll {
		t.Fatalf("bytes per move: vaultdeck %d within the window, %d scrolling; stock table %d and %d",
			ours.within, ours.scroll, stock.within, stock.scroll)
	}
}
