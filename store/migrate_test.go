package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixtures insert data valid at a given schema version, using only the
// tables that existed then, so each upgrade path is tested with real rows.
var fixtures = map[int][]string{
	1: {`INSERT INTO profiles (name, region, is_default, token_storage, created_at) VALUES ('old', 'eu', 1, 'keyring', 1)`},
	2: {`INSERT INTO bookmarks (profile, project_id, name, created_at) VALUES ('old', 'p1', 'Project', 2)`},
	3: {`INSERT INTO response_cache (profile, key, body, fetched_at) VALUES ('old', 'k', x'00ff', 3)`},
	4: {`INSERT INTO matter_receipts (id, action, profile, endpoint, pairs, status, started_at) VALUES (1, 'delete', 'old', 'https://x', 1, 'complete', 4)`,
		`INSERT INTO matter_receipt_items (receipt_id, line, client_id, matter_id, result) VALUES (1, 2, 'C', 'M', 'deleted')`},
	5: {`INSERT INTO upload_runs (id, profile, project_id, mode, created_at) VALUES (1, 'old', 'p1', 'keep', 4)`,
		`INSERT INTO upload_batches (id, run_id, began_at) VALUES (1, 1, 4)`,
		`INSERT INTO upload_files (run_id, batch_id, local_path, file_path, name, size, state) VALUES (1, 1, '/a.pdf', 'a.pdf', 'a.pdf', 1, 'pending')`},
	6: {`INSERT INTO profile_settings (profile, key, value) VALUES ('old', 'theme', 'mono')`},
	7: {`INSERT INTO matter_receipt_items (receipt_id, line, client_id, matter_id, result, sent_at) VALUES (1, 3, 'C', 'M2', 'in_flight', 7)`},
	8: {`INSERT INTO upload_files (run_id, batch_id, local_path, file_path, name, size, state) VALUES (1, 1, '/b.pdf', 'b.pdf', 'b.pdf', 1, 'unproven')`},
	9: {`INSERT INTO access_snapshots (id, profile, started_at, finished_at) VALUES (1, 'old', 9, 10)`,
		`INSERT INTO access_projects (snapshot_id, project_id, name, updated_at, state) VALUES (1, 'p1', 'Project', 't', 'read')`,
		`INSERT INTO access_grants (snapshot_id, project_id, project_name, user_id, email, name, access_level) VALUES (1, 'p1', 'Project', 'u1', 'a@b', 'A', 'READ')`},
	10: {`INSERT INTO audit_logs (id, key, cursor) VALUES (1, 'http://x|w', 'a')`,
		`INSERT INTO audit_entries (log, id, at, type, user, ip, raw) VALUES (1, 'a', 1, 't', 'u', 'i', '{}')`,
		`INSERT INTO audit_checkpoints (name, id, updated_at) VALUES ('siem', 'a', 1)`},
	11: {`INSERT INTO budget_sends (bucket, sent_at) VALUES ('http://x|workspace:w|vault', 7)`,
		`INSERT INTO budget_holds (bucket, until) VALUES ('http://x|workspace:w|vault', 7)`},
	12: {`INSERT INTO upload_files (run_id, batch_id, local_path, file_path, name, size, state, dev, ino, mtime_ns, service_name, deleted_at) VALUES (1, 1, '/c.pdf', 'c.pdf', 'c.pdf', 1, 'uploaded', 1, 2, 3, 'c (1).pdf', 12)`},
	13: {}, // a table dropped: version 13 holds nothing new
	14: {`INSERT INTO audit_entries (log, id, at, type, user, ip, raw) VALUES (1, 'b', 2, 'auth:login', 'u', 'i2', '{}')`},
	15: {`INSERT INTO profiles (name, region, is_default, token_storage, created_at, workspace_id, workspace_name) VALUES ('ws', 'eu', 0, 'keyring', 15, 'w1', 'Harrowgate LLP')`},
	16: {`INSERT INTO write_jobs (id, kind, profile, base_url, created_at) VALUES (1, 'delete_file', 'old', 'https://x', 16)`,
		`INSERT INTO write_job_items (job_id, seq, send_no, target, action, state) VALUES (1, 1, 1, 'f1', 'delete', 'done')`},
	17: {`INSERT INTO hub_actions (at, actor, method, path, what) VALUES (17, 'key SHA256:x a@b', 'DELETE', '/api/v1/vault/delete_project/p', 'project deleted')`},
	18: {`INSERT INTO hub_actions (at, actor, method, path, what) VALUES (18, 'key SHA256:y c@d', 'DELETE', '/api/v1/vault/delete_project/q', 'project deleted')`},
	19: {`INSERT INTO matter_receipts (id, action, profile, endpoint, pairs, status, started_at, actor_os_user, actor_key) VALUES (19, 'delete', 'old', 'https://x', 1, 'complete', 19, 'alice', 'key SHA256:z e@f')`,
		`INSERT INTO upload_runs (id, profile, project_id, mode, created_at, actor_os_user, actor_key) VALUES (19, 'old19', 'p1', 'keep', 19, 'alice', 'key SHA256:z e@f')`},
}

// openRaw opens the file without migrating, so tests can build older schemas.
func openRaw(path string) (*Store, error) { return openRawWith(path, "FULL", Options{}) }

// tableExists says whether the schema holds a table of that name.
func tableExists(t *testing.T, s *Store, name string) bool {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// TestMigrationDropsBookmarks: the bookmarks table (version 2) held what
// no feature ever read; an up-to-date database has none, whatever it held.
func TestMigrationDropsBookmarks(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	raw, err := openRaw(path)
	if err != nil {
		t.Fatal(err)
	}
	const lastWithBookmarks = 12
	if err := migrate(context.Background(), raw.db.db, lastWithBookmarks); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.db.Exec(fixtures[2][0]); err != nil {
		t.Fatal(err)
	}
	if !tableExists(t, raw, "bookmarks") {
		t.Fatalf("no bookmarks table at version %d", lastWithBookmarks)
	}
	raw.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if tableExists(t, s, "bookmarks") {
		t.Fatal("the bookmarks table is still there after migrating")
	}
}

func TestMigrationsAreOrdered(t *testing.T) {
	for i, m := range migrations {
		if m.version != i+1 {
			t.Fatalf("migrations[%d].version = %d, want %d", i, m.version, i+1)
		}
	}
	for v := 1; v <= len(migrations); v++ {
		if _, ok := fixtures[v]; !ok {
			t.Errorf("migration %d has no fixture; add one so upgrades from it are tested", v)
		}
	}
}

// TestMigrateFromEachVersion builds a database at every earlier version, fills
// it with that version's data, then opens it normally and checks everything
// arrived intact at the latest version.
func TestMigrateFromEachVersion(t *testing.T) {
	for from := 0; from <= len(migrations); from++ {
		t.Run(fmt.Sprintf("from_v%d", from), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			raw, err := openRaw(path)
			if err != nil {
				t.Fatal(err)
			}
			// Each version's rows go in at that version: a later one may
			// drop their table (13 drops version 2's bookmarks).
			for v := 1; v <= from; v++ {
				if err := migrate(context.Background(), raw.db.db, v); err != nil {
					t.Fatal(err)
				}
				for _, q := range fixtures[v] {
					if _, err := raw.db.Exec(q); err != nil {
						t.Fatalf("fixture for version %d: %v", v, err)
					}
				}
			}
			if got, _ := raw.Version(); got != from {
				t.Fatalf("built version %d, want %d", got, from)
			}
			raw.Close()

			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if v, _ := s.Version(); v != len(migrations) {
				t.Fatalf("version after Open = %d, want %d", v, len(migrations))
			}
			var rows int
			s.db.QueryRow(`SELECT count(*) FROM schema_version`).Scan(&rows)
			if rows != 1 {
				t.Fatalf("schema_version has %d rows, want 1", rows)
			}
			if from >= 1 {
				p, err := s.Profile("old")
				if err != nil || p.Region != "eu" || !p.IsDefault || p.TokenStorage != StorageKeyring {
					t.Fatalf("profile lost in migration: %+v, %v", p, err)
				}
			}
			if tableExists(t, s, "bookmarks") {
				t.Fatal("the bookmarks table survived the migrations")
			}
			if from >= 3 {
				body, at, ok, _ := s.Cache("old", "k")
				if !ok || string(body) != "\x00\xff" || !at.Equal(time.UnixMilli(3)) {
					t.Fatalf("cache lost in migration: %q %v %v", body, at, ok)
				}
			}
			if from >= 4 {
				if r, err := s.Receipt(1); err != nil || r.Counts["deleted"] != 1 {
					t.Fatalf("receipt lost in migration: %+v %v", r, err)
				}
				// a run from before actors were kept names none
				if r, _ := s.Receipt(1); r.ActorOSUser != "" || r.ActorKey != "" {
					t.Fatalf("an old receipt names actor %q %q, want none", r.ActorOSUser, r.ActorKey)
				}
			}
			if from >= 19 {
				r, err := s.Receipt(19)
				runs, err2 := s.UploadRuns("old19")
				if err != nil || err2 != nil || r.ActorOSUser != "alice" || r.ActorKey != "key SHA256:z e@f" || len(runs) != 1 ||
					runs[0].ActorOSUser != "alice" || runs[0].ActorKey != "key SHA256:z e@f" {
					t.Fatalf("actors lost in migration: receipt %+v %v, runs %+v %v", r, err, runs, err2)
				}
			}
			if from >= 5 {
				if runs, err := s.UploadRuns("old"); err != nil || len(runs) != 1 || runs[0].Pending != 1 || runs[0].OpenBatches != 1 {
					t.Fatalf("upload journal lost in migration: %+v %v", runs, err)
				}
				if err := s.CompleteBatch(1, "", []FileOutcome{{ID: 1, State: FileUnproven, Reason: "r"}}, ""); err != nil {
					t.Fatalf("an unproven file cannot be recorded after migration: %v", err)
				}
			}
			// The latest schema works in full.
			rid, err := s.StartReceipt(Receipt{Action: "delete", Profile: "new", ActorOSUser: "bob", ActorKey: "certificate bob (key ID b)"})
			if err != nil {
				t.Fatal(err)
			}
			if r, err := s.Receipt(rid); err != nil || r.ActorOSUser != "bob" || r.ActorKey != "certificate bob (key ID b)" {
				t.Fatalf("a new receipt's actor: %+v %v", r, err)
			}
			if _, err := s.CreateRun(UploadRun{Profile: "new", ProjectID: "p", Mode: "keep", ActorOSUser: "bob", ActorKey: "k"}); err != nil {
				t.Fatal(err)
			}
			if runs, err := s.UploadRuns("new"); err != nil || len(runs) != 1 || runs[0].ActorOSUser != "bob" || runs[0].ActorKey != "k" {
				t.Fatalf("a new run's actor: %+v %v", runs, err)
			}
			if err := s.SaveProfile(Profile{Name: "new"}); err != nil {
				t.Fatal(err)
			}
			if err := s.PutCache("new", "k", []byte("b"), time.Now()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestReopenIsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	for i := 0; i < 3; i++ {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.db.Exec(`UPDATE schema_version SET version = 99`)
	s.Close()
	_, err = Open(path)
	if err == nil || !strings.Contains(err.Error(), "upgrade vaultdeck") {
		t.Fatalf("opening a newer schema = %v, want a refusal that says to upgrade", err)
	}
}
