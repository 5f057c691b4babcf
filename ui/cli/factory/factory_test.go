package factory

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// TestConnectResolvesOnceAndTellsThePrinter: the account is opened once
// per command however often a command asks, and the token the client will
// send is redacted from the printer's streams before any request.
func TestConnectResolvesOnceAndTellsThePrinter(t *testing.T) {
	var out bytes.Buffer
	p := printer.New(nil, &out, io.Discard)
	p.Start(context.Background(), "whoami")
	opened := 0
	f := New(p, &account.Flags{BaseURL: "http://127.0.0.1:1"}, Deps{
		Getenv: func(k string) string { return map[string]string{"VAULTDECK_TOKEN": "tok-FACTORY-9"}[k] },
		Account: func(string) (*account.Chosen, error) {
			opened++
			return nil, nil
		},
	})
	c1, err := f.Client()
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := f.Client()
	if c1 != c2 || opened != 1 {
		t.Errorf("resolved %d times, same client %v", opened, c1 == c2)
	}
	io.WriteString(p.Out(), "echoed tok-FACTORY-9\n")
	p.Finish(printer.ExitOK)
	if strings.Contains(out.String(), "FACTORY") {
		t.Errorf("the token reached stdout: %q", out.String())
	}
}

// TestFactoryOverFakes: what a test leaves out is said, not a panic, and a
// read-only profile refuses a write before any request.
func TestFactoryOverFakes(t *testing.T) {
	var errb bytes.Buffer
	p := printer.New(nil, io.Discard, &errb)
	p.Start(context.Background(), "upload")
	f := New(p, &account.Flags{}, Deps{})
	if _, err := f.Store(); err == nil {
		t.Error("a store without OpenStore")
	}
	if _, _, err := f.OpenJournal(); err == nil {
		t.Error("a journal without Journal")
	}
	boom := errors.New("locked")
	f = New(p, &account.Flags{ReadOnly: true}, Deps{
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": "tok-READONLY-5", "VAULTDECK_BASE_URL": "http://127.0.0.1:1"}[k]
		},
		OpenStore: func() (*store.Store, error) { return nil, boom },
		Limits:    api.Limits{Vault: -1},
	})
	if _, err := f.Store(); !errors.Is(err, boom) {
		t.Errorf("Store: %v", err)
	}
	if code, ok := f.RefuseReadOnly(); ok || code != printer.ExitUsage || !strings.Contains(errb.String(), "read-only; this command changes the workspace") {
		t.Errorf("read-only: %d %v %q", code, ok, errb.String())
	}
}
