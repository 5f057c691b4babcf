package cli

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// fakeAudit is an audit service of entries given as bytes, served as they
// are (no re-encoding), so a test can hand the command entries in shapes the
// simulator never writes (keys in another order, fields the client does
// not know) and a benchmark a large log without the simulator's own work.
// It answers earliest, latest, search and the listing; it writes no entry
// of its own reads. Entries must be given in the listing's order (ids and
// times ascending).
type fakeAudit struct {
	served   atomic.Int64 // entries sent, in all answers
	requests atomic.Int64 // audit requests answered
	ids      []string
	times    []time.Time
	types    []string
	raws     [][]byte
}

func (f *fakeAudit) add(id string, at time.Time, typ string, raw []byte) {
	f.ids, f.times, f.types, f.raws = append(f.ids, id), append(f.times, at), append(f.types, typ), append(f.raws, raw)
}

// fakeAuditID is an id that sorts as the service orders them.
func fakeAuditID(i int) string { return fmt.Sprintf("01900000-0000-7000-8000-%012d", i) }

func (f *fakeAudit) start() *httptest.Server {
	return httptest.NewServer(f)
}

// ofType says entry i is of the type asked (all without one).
func (f *fakeAudit) ofType(i int, typ string) bool {
	return typ == "" || strings.EqualFold(f.types[i], typ)
}

func (f *fakeAudit) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	typ := q.Get("log_type")
	if strings.HasPrefix(r.URL.Path, "/api/v1/logs/") {
		f.requests.Add(1)
	}
	one := func(i int) {
		if i < 0 {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"no audit log entries found"}`))
			return
		}
		f.served.Add(1)
		w.Write([]byte(`{"log":`))
		w.Write(f.raws[i])
		w.Write([]byte(`}`))
	}
	switch r.URL.Path {
	case "/api/whoami", "/api/v1/whoami":
		w.Write([]byte(`{"user_id":"u1","email":"admin@firm.test","workspace_id":"w1"}`))
	case "/api/v1/logs/audit/earliest":
		i := 0
		for i < len(f.ids) && !f.ofType(i, typ) {
			i++
		}
		one(map[bool]int{true: i, false: -1}[i < len(f.ids)])
	case "/api/v1/logs/audit/latest":
		i := len(f.ids) - 1
		for i >= 0 && !f.ofType(i, typ) {
			i--
		}
		one(i)
	case "/api/v1/logs/audit/search":
		sec, _ := strconv.ParseInt(q.Get("time"), 10, 64)
		at := time.Unix(sec, 0)
		i := sort.Search(len(f.times), func(i int) bool { return !f.times[i].Before(at) })
		for i < len(f.ids) && !f.ofType(i, typ) {
			i++
		}
		one(map[bool]int{true: i, false: -1}[i < len(f.ids)])
	case "/api/v1/logs/audit":
		from := q.Get("from")
		take, _ := strconv.Atoi(q.Get("take"))
		i := sort.SearchStrings(f.ids, from)
		if i < len(f.ids) && f.ids[i] == from {
			i++
		}
		var b bytes.Buffer
		b.Grow(min(take, len(f.ids)-i) * 400) // the page at once, as a server that knows its size writes it
		b.WriteByte('[')
		for n := 0; i < len(f.ids) && n < take; i++ {
			if n > 0 {
				b.WriteByte(',')
			}
			b.Write(f.raws[i])
			n++
			f.served.Add(1)
		}
		b.WriteByte(']')
		w.Write(b.Bytes())
	default:
		http.NotFound(w, r)
	}
}
