package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// oddAuditLog is a log whose entries the client could not write back from
// a decode: keys in an order of the server's own, fields the client does
// not know (top level and nested), spacing, an escaped character kept as
// the server escaped it.
func oddAuditLog(now time.Time) *fakeAudit {
	f := &fakeAudit{}
	for i := range 12 {
		at := now.Add(-time.Duration(12-i) * time.Minute)
		typ := []string{"auth:login", "api:vault_delete_project", "x:new_kind"}[i%3]
		var raw string
		switch i % 4 {
		case 0:
			raw = fmt.Sprintf(`{"zeta":%d,"type":%q,"id":%q,"timestamp":%q,"user":"ann@firm.test","ip":"10.0.0.%d","data":{"b":2,"a":[1,{"z":null}]},"user_agent":"ua"}`,
				i, typ, fakeAuditID(i), at.Format(time.RFC3339Nano), i)
		case 1:
			raw = fmt.Sprintf(`{"id": %q, "timestamp": %q, "type": %q, "user": "bob@firm.test", "ip": "10.0.0.%d", "severity": "high", "data": {}}`,
				fakeAuditID(i), at.Format(time.RFC3339Nano), typ, i)
		case 2:
			raw = fmt.Sprintf(`{"data":{"note":"caf\u00e9 \"quoted\""},"ip":"10.0.0.%d","user":"ann@firm.test","type":%q,"timestamp":%q,"id":%q,"tags":["a","b"],"n":1.5e3}`,
				i, typ, at.Format(time.RFC3339Nano), fakeAuditID(i))
		default:
			raw = fmt.Sprintf(`{"id":%q,"timestamp":%q,"type":%q,"user":"cy@firm.test","ip":"10.0.0.%d","user_agent":null,"data":null,"extra":true}`,
				fakeAuditID(i), at.Format(time.RFC3339Nano), typ, i)
		}
		f.add(fakeAuditID(i), at, typ, []byte(raw))
	}
	return f
}

// auditEnv runs the command line against base with no mirror (noStore) or
// with an empty one in dir.
func auditEnv(base, dir string, out, errb *bytes.Buffer) Env {
	vars := map[string]string{"VAULTDECK_TOKEN": "bench-token-0123", "VAULTDECK_BASE_URL": base}
	open := func() (*store.Store, error) { return nil, errors.New("no store in this test") }
	if dir != "" {
		open = func() (*store.Store, error) { return store.Open(filepath.Join(dir, "vaultdeck.db")) }
	}
	return Env{Stdin: strings.NewReader(""), Stdout: out, Stderr: errb, Getenv: func(k string) string { return vars[k] },
		Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}, OpenStore: open, Clock: fixedClock{}}
}

// TestAuditJSONWritesEntriesAsSent: `audit --json`/`--jsonl` writes each
// entry's own bytes, whichever way the service was read (forward from
// --since or the earliest, newest first by search, with a type, with a
// limit, beside an empty mirror): keys in the server's order, fields the
// client does not know, spacing within an entry and escapes as sent.
func TestAuditJSONWritesEntriesAsSent(t *testing.T) {
	now := fixedNow()
	f := oddAuditLog(now)
	srv := f.start()
	defer srv.Close()
	want := func(idx ...int) string {
		var b strings.Builder
		for _, i := range idx {
			b.Write(f.raws[i])
			b.WriteByte('\n')
		}
		return b.String()
	}
	all, newest := make([]int, 12), make([]int, 12)
	for i := range 12 {
		all[i], newest[i] = i, 11-i
	}
	since := now.Add(-(12 - 4) * time.Minute).Format(time.RFC3339)
	for _, tc := range []struct {
		args  []string
		store bool
		want  string
	}{
		{[]string{"--oldest", "--limit", "0"}, false, want(all...)},
		{[]string{"--oldest", "--limit", "0"}, true, want(all...)},
		{[]string{"--newest", "--limit", "0"}, false, want(newest...)},
		{[]string{"--limit", "3"}, false, want(11, 10, 9)},
		{[]string{"--since", since, "--limit", "0"}, false, want(all[4:]...)},
		{[]string{"--since", since, "--newest", "--limit", "0"}, false, want(11, 10, 9, 8, 7, 6, 5, 4)},
		{[]string{"--type", "AUTH:LOGIN", "--oldest", "--limit", "0"}, false, want(0, 3, 6, 9)},
		{[]string{"--type", "x:new_kind", "--limit", "2"}, false, want(11, 8)},
		{[]string{"--user", "ann@firm.test", "--oldest", "--limit", "3"}, false, want(0, 2, 4)},
		{[]string{"--ip", "10.0.0.7", "--oldest", "--limit", "0"}, false, want(7)},
	} {
		name := strings.Join(tc.args, " ")
		if tc.store {
			name += " (empty mirror)"
		}
		t.Run(name, func(t *testing.T) {
			dir := ""
			if tc.store {
				dir = t.TempDir()
			}
			var out, errb bytes.Buffer
			args := append([]string{"audit", "--jsonl"}, tc.args...)
			if code := Main(context.Background(), args, auditEnv(srv.URL, dir, &out, &errb)); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			if got := out.String(); got != tc.want {
				t.Errorf("--jsonl wrote\n%s\nwant the entries as sent\n%s", got, tc.want)
			}
			out.Reset()
			args[1] = "--json"
			if code := Main(context.Background(), args, auditEnv(srv.URL, dir, &out, &errb)); code != 0 {
				t.Fatalf("--json: exit %d: %s", code, errb.String())
			}
			lines := strings.TrimSuffix(strings.ReplaceAll(tc.want, "\n", ",\n"), ",\n")
			if got, w := out.String(), "[\n"+lines+"\n]\n"; got != w {
				t.Errorf("--json wrote\n%s\nwant\n%s", got, w)
			}
		})
	}
}

// TestAuditJSONFromTheMirrorAsSent: entries answered by the local mirror
// (after audit sync) come out as the service sent them too: the mirror
// keeps each entry's bytes beside the columns it filters on.
func TestAuditJSONFromTheMirrorAsSent(t *testing.T) {
	f := oddAuditLog(fixedNow())
	srv := f.start()
	defer srv.Close()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"audit", "sync"}, auditEnv(srv.URL, dir, &out, &errb)); code != 0 {
		t.Fatalf("sync: exit %d: %s", code, errb.String())
	}
	for _, tc := range []struct {
		args []string
		idx  []int
	}{
		{[]string{"--oldest", "--limit", "0"}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
		{[]string{"--newest", "--limit", "3"}, []int{11, 10, 9}},
		{[]string{"--type", "auth:login", "--oldest", "--limit", "0"}, []int{0, 3, 6, 9}},
	} {
		out.Reset()
		served := f.served.Load()
		args := append([]string{"audit", "--jsonl"}, tc.args...)
		if code := Main(context.Background(), args, auditEnv(srv.URL, dir, &out, &errb)); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		var want strings.Builder
		for _, i := range tc.idx {
			want.Write(f.raws[i])
			want.WriteByte('\n')
		}
		if out.String() != want.String() {
			t.Errorf("%v wrote\n%s\nwant\n%s", args, out.String(), want.String())
		}
		if tc.args[0] == "--oldest" && f.served.Load()-served > 1 {
			t.Errorf("%v: the service sent %d entries: want the mirror's answer", args, f.served.Load()-served)
		}
	}
}
