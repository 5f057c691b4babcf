package recyclebinview

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

func entry(id, name string, deletedAgo, purgeIn time.Duration) api.RecycleBinEntry {
	now := pagetest.Now
	return api.RecycleBinEntry{
		ID: id, ResourceID: "res-" + id, ResourceType: "vault_project", RecycleBinStatus: "IN_RECYCLE_BIN",
		DeletedAt:                   api.Time{Time: now.Add(-deletedAgo)},
		RecycleBinPurgedScheduledAt: api.Time{Time: now.Add(purgeIn)},
		DeleteSource:                "USER", DeletedByUserEmail: "ann@firm.test",
		VaultProject: api.RecycledProject{ID: "p-" + id, Name: name, FilesCount: 3, IsKnowledgeBaseProject: id == "b"},
	}
}

func fixture() *api.RecycleBin {
	return &api.RecycleBin{Items: []api.RecycleBinEntry{
		entry("a", "Old Matter", 20*24*time.Hour, 10*24*time.Hour),
		entry("b", "Newest Deal", time.Hour, 3*time.Hour),
		entry("c", "Mid Case", 5*24*time.Hour, 5*24*time.Hour),
	}, Total: 3}
}

func open(t testing.TB, fake *pagetest.Fake) page.Page {
	env := pagetest.Env(t, fake, false)
	p := New(env, "")
	p.SetSize(100, 20)
	p, _ = pagetest.Drive(p, p.Init())
	return p
}

func TestRowsNewestFirstWithCountdown(t *testing.T) {
	src := rowsOf(newBinSet(fixture()), nil, pagetest.Now)
	rows := make([]widgets.Row, src.Len())
	for i := range rows {
		rows[i] = src.Row(i)
	}
	got := []string{rows[0].Cells[ColProject], rows[1].Cells[ColProject], rows[2].Cells[ColProject]}
	if strings.Join(got, ",") != "Newest Deal,Mid Case,Old Matter" {
		t.Fatalf("order %v", got)
	}
	cases := []struct {
		row  int
		want string
		tone widgets.Tone
	}{{0, "3h00m", widgets.ToneAlarm}, {1, "5d00h", widgets.ToneWarn}, {2, "10d00h", widgets.ToneNone}}
	for _, c := range cases {
		if rows[c.row].Cells[ColPurgeIn] != c.want || toneOf(rows[c.row], ColPurgeIn) != c.tone {
			t.Errorf("row %d purge %q tone %d", c.row, rows[c.row].Cells[ColPurgeIn], toneOf(rows[c.row], ColPurgeIn))
		}
	}
	if rows[0].Cells[ColKB] != "✓" {
		t.Error("knowledge base not marked")
	}
	if s, tone := PurgeIn(pagetest.Now.Add(-time.Minute), pagetest.Now); s != "overdue" || tone != widgets.ToneAlarm {
		t.Errorf("overdue: %q", s)
	}
}

func TestViewDetailAndErrorKeepsData(t *testing.T) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return fixture(), nil }}
	p := open(t, fake)
	if v := p.View(); !strings.Contains(v, "Newest Deal") || !strings.Contains(v, "3 entries") {
		t.Fatalf("view:\n%s", v)
	}
	p, _ = pagetest.Press(p, "down")
	p, _ = pagetest.Press(p, "enter")
	v := p.View()
	for _, want := range []string{"Mid Case", "recycle_bin_purged_scheduled_at", "vault_project.creator_email", "res-c"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q:\n%s", want, v)
		}
	}
	if !p.(page.EscHandler).WantsEsc() {
		t.Error("detail open but esc not wanted")
	}
	p, _ = pagetest.Press(p, "esc")
	fake.RecycleBinFn = func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) {
		return nil, fmt.Errorf("rate limited")
	}
	p, out := pagetest.Press(p, "r")
	if len(out) != 1 || out[0].(page.StatusMsg).Err == nil {
		t.Fatalf("want one error status, got %v", out)
	}
	if !strings.Contains(p.View(), "Newest Deal") {
		t.Error("an error blanked the last good data")
	}
}

func TestMatterFilterValidatesUUID(t *testing.T) {
	var got api.RecycleBinQuery
	fake := &pagetest.Fake{RecycleBinFn: func(_ context.Context, q api.RecycleBinQuery) (*api.RecycleBin, error) {
		got = q
		return fixture(), nil
	}}
	p := open(t, fake)
	p, _ = pagetest.Press(p, "m")
	p, _ = pagetest.Type(p, "not-a-uuid")
	p, out := pagetest.Press(p, "enter")
	if len(out) != 1 || out[0].(page.StatusMsg).Err == nil || fake.Calls("RecycleBin") != 1 {
		t.Fatalf("invalid UUID accepted: %v", out)
	}
	for range 10 {
		p, _ = pagetest.Press(p, "backspace")
	}
	const id = "123e4567-e89b-12d3-a456-426614174000"
	p, _ = pagetest.Type(p, id)
	p, _ = pagetest.Press(p, "enter")
	if got.ClientMatterID != id || fake.Calls("RecycleBin") != 2 {
		t.Errorf("query %+v calls %d", got, fake.Calls("RecycleBin"))
	}
	_ = p
}

func TestStaleResponseDropped(t *testing.T) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return fixture(), nil }}
	env := pagetest.Env(t, fake, false)
	p := New(env, "")
	p.SetSize(100, 20)
	first := p.Init()                        // request 1 in flight
	_, second := p.Update(pagetest.Key("r")) // request 2 supersedes it
	p, _ = pagetest.Drive(p, second)
	// the late answer to request 1 claims an empty bin: it must not win
	m := p.(*Model)
	stale := loaded{Tag: page.Tag{View: m.id, Seq: 1}, Value: prepared{}}
	p, _ = p.Update(stale)
	_ = first
	if !strings.Contains(p.View(), "3 entries") {
		t.Error("stale response replaced newer data")
	}
}

func TestHostileNamesRenderInert(t *testing.T) {
	rb := fixture()
	rb.Items[1].VaultProject.Name = "evil\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2Jname"
	rb.Items[1].DeletedByUserEmail = "x\x1b[31m@y"
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return rb, nil }}
	p := open(t, fake)
	p, _ = pagetest.Press(p, "enter")
	for _, v := range []string{p.View()} {
		if strings.ContainsAny(v, "\x1b\x07") {
			t.Fatalf("escape reached the screen: %q", v)
		}
		if !strings.Contains(v, "evilname") {
			t.Errorf("sanitized name missing:\n%s", v)
		}
	}
}

func TestCachedDataShownWithoutRequest(t *testing.T) {
	cache := &pagetest.MapCache{At: pagetest.Now.Add(-5 * time.Minute)}
	body, _ := json.Marshal(fixture())
	cache.Put(cacheKey, body)
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return fixture(), nil }}
	env := pagetest.Env(t, fake, false)
	env.Cache = cache
	p := New(env, "")
	p.SetSize(100, 20)
	p, _ = pagetest.Drive(p, p.Init())
	if fake.Calls("RecycleBin") != 0 || !strings.Contains(p.View(), "cached 5 minutes ago") {
		t.Errorf("calls %d view:\n%s", fake.Calls("RecycleBin"), p.View())
	}
}

func bigBin(n int) *api.RecycleBin {
	rb := &api.RecycleBin{Items: make([]api.RecycleBinEntry, n)}
	for i := range rb.Items {
		rb.Items[i] = entry(fmt.Sprint(i), fmt.Sprintf("Matter %06d", i), time.Duration(i)*time.Minute, time.Duration(i)*time.Minute)
	}
	return rb
}

func BenchmarkKeyPress100k(b *testing.B) {
	rb := bigBin(100_000)
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return rb, nil }}
	p := open(b, fake)
	p.SetSize(200, 60)
	down := pagetest.Key("down")
	b.ResetTimer()
	for b.Loop() {
		p, _ = p.Update(down)
		_ = p.View()
	}
}

func BenchmarkFilter100k(b *testing.B) {
	rb := bigBin(100_000)
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return rb, nil }}
	p := open(b, fake)
	p, _ = pagetest.Press(p, "/")
	b.ResetTimer()
	for b.Loop() {
		p, _ = pagetest.Type(p, "ann") // matches every row
		p, _ = pagetest.Type(p, "9")   // refines
		p, _ = pagetest.Press(p, "backspace")
		p, _ = pagetest.Press(p, "backspace")
		p, _ = pagetest.Press(p, "backspace")
		p, _ = pagetest.Press(p, "backspace")
	}
}

// toneOf is a cell's tone; a row without tones is all ToneNone.
func toneOf(r widgets.Row, col int) widgets.Tone {
	if col < len(r.Tones) {
		return r.Tones[col]
	}
	return widgets.ToneNone
}

// esc undoes the client-matter filter before it leaves the page, as it does
// the name filter (k9s, lazygit): the root asks WantsEsc first.
func TestEscClearsMatterFilter(t *testing.T) {
	var got api.RecycleBinQuery
	fake := &pagetest.Fake{RecycleBinFn: func(_ context.Context, q api.RecycleBinQuery) (*api.RecycleBin, error) {
		got = q
		return fixture(), nil
	}}
	p := open(t, fake)
	if p.(page.EscHandler).WantsEsc() {
		t.Fatal("esc claimed with no filter set")
	}
	p, _ = pagetest.Press(p, "m")
	p, _ = pagetest.Type(p, "123e4567-e89b-12d3-a456-426614174000")
	p, _ = pagetest.Press(p, "enter")
	if !p.(page.EscHandler).WantsEsc() {
		t.Fatal("esc would leave the page with a client-matter filter set")
	}
	p, _ = pagetest.Press(p, "esc")
	if got.ClientMatterID != "" || fake.Calls("RecycleBin") != 3 {
		t.Errorf("after esc: query %+v, %d calls", got, fake.Calls("RecycleBin"))
	}
	if p.(page.EscHandler).WantsEsc() || strings.Contains(p.View(), "client-matter 123e") {
		t.Errorf("filter still set after esc:\n%s", p.View())
	}
}

// Issue 19 case 12: the countdown keeps its hours past a week (an entry
// deleted a minute ago is 29d23h from its purge, not 29d), and an entry
// past its purge time is overdue, never 0h00m.
func TestPurgeInWording(t *testing.T) {
	now := pagetest.Now
	cases := []struct {
		in   time.Duration
		want string
		tone widgets.Tone
	}{
		{30*24*time.Hour - time.Minute, "29d23h", widgets.ToneNone},
		{10 * 24 * time.Hour, "10d00h", widgets.ToneNone},
		{5*24*time.Hour + 3*time.Hour, "5d03h", widgets.ToneWarn},
		{3*time.Hour + 7*time.Minute, "3h07m", widgets.ToneAlarm},
		{30 * time.Second, "<1m", widgets.ToneAlarm},
		{0, "overdue", widgets.ToneAlarm},
		{-time.Minute, "overdue", widgets.ToneAlarm},
		{-40 * 24 * time.Hour, "overdue", widgets.ToneAlarm},
	}
	for _, c := range cases {
		if s, tone := PurgeIn(now.Add(c.in), now); s != c.want || tone != c.tone {
			t.Errorf("purge in %v: %q tone %d, want %q tone %d", c.in, s, tone, c.want, c.tone)
		}
	}
}
