package console

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// demoHomes are the demo's temporary homes under dir (TMPDIR).
func demoHomes(t *testing.T, dir string) []string {
	t.Helper()
	homes, err := filepath.Glob(filepath.Join(dir, "vaultdeck-demo-*"))
	if err != nil {
		t.Fatal(err)
	}
	return homes
}

// TestDemoMakesItsHomeAfterTheFirstFrame: what the first frame does not
// need waits for it (issue 32): before begin (the console's AfterFirstFrame)
// the demo has made no temporary home and has not seeded its simulator;
// after it the store opens in a new home, which close removes.
func TestDemoMakesItsHomeAfterTheFirstFrame(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	d, err := newDemo(context.Background(), DemoOptions{Seed: sim.DefaultSeed, Scale: sim.ScaleSmall})
	if err != nil {
		t.Fatal(err)
	}
	if homes := demoHomes(t, tmp); len(homes) != 0 {
		t.Errorf("the temporary home was made before the first frame: %v", homes)
	}
	select {
	case <-d.sim.ready:
		t.Error("the simulator was seeded before the first frame")
	default:
	}
	if d.console.AfterFirstFrame == nil {
		t.Fatal("nothing starts after the first frame")
	}
	d.console.AfterFirstFrame()
	db := d.console.Journal.Path() // waits for the opening
	homes := demoHomes(t, tmp)
	if len(homes) != 1 || filepath.Dir(db) != homes[0] {
		t.Fatalf("after the first frame: homes %v, database %s", homes, db)
	}
	if err := d.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(homes[0]); !os.IsNotExist(err) {
		t.Errorf("close left the home %s (%v)", homes[0], err)
	}
}

// TestDemoClosedBeforeItsFirstFrame: a demo that ends before its first
// frame (a signal, a terminal that fails) leaves nothing behind.
func TestDemoClosedBeforeItsFirstFrame(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	d, err := newDemo(context.Background(), DemoOptions{Seed: sim.DefaultSeed, Scale: sim.ScaleSmall})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.close(); err != nil {
		t.Fatal(err)
	}
	if homes := demoHomes(t, tmp); len(homes) != 0 {
		t.Errorf("left behind: %v", homes)
	}
}

// TestDemoClaimsItsCrawlBeforeTheFirstRead: with --no-rate-limit the
// crawl's snapshot is claimed as the store opens, before any other call is
// let through, so the first read after the first frame (:access typed at
// once) finds the crawl under way. TestDemoAccessView failed on that race
// ("no finished snapshot yet" while the crawl went on and finished): the
// view follows a crawl only when its first read shows one.
func TestDemoClaimsItsCrawlBeforeTheFirstRead(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	d, err := newDemo(context.Background(), DemoOptions{Seed: sim.DefaultSeed, Scale: sim.ScaleSmall, NoRateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	d.console.AfterFirstFrame()
	snaps, err := d.console.Journal.AccessSnapshots("demo")
	if err != nil || len(snaps) == 0 {
		t.Errorf("the first read after the first frame found no crawl: %v, %v", snaps, err)
	}
	if err := d.close(); err != nil {
		t.Fatal(err)
	}
}
